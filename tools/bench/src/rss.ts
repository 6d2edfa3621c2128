import { readFileSync } from 'node:fs';

/** The resident set size in /proc/<pid>/status (`VmRSS:   123456 kB`), in kB. */
export function vmRssKb(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match?.[1]) throw new Error('no VmRSS line in /proc/<pid>/status');
  return Number(match[1]);
}

export function processRssKb(pid: number): number {
  return vmRssKb(readFileSync(`/proc/${pid}/status`, 'utf8'));
}

/**
 * Samples the RSS of each process every `everyMs` from now until `stop()`, which gives each
 * one's growth: the most seen during the run minus the RSS when sampling started, in MB.
 */
export function sampleRss(
  pids: Record<string, number>,
  everyMs = 100,
): { stop: () => Record<string, number> } {
  const before: Record<string, number> = {};
  const most: Record<string, number> = {};
  const sample = () => {
    for (const [name, pid] of Object.entries(pids)) {
      most[name] = Math.max(most[name] ?? 0, processRssKb(pid));
    }
  };
  for (const [name, pid] of Object.entries(pids)) before[name] = processRssKb(pid);
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return growthMb(before, most);
    },
  };
}

/** Growth from `before` to `most` (both kB) per process, in MB, never negative. */
export function growthMb(
  before: Record<string, number>,
  most: Record<string, number>,
): Record<string, number> {
  const growth: Record<string, number> = {};
  for (const [name, kb] of Object.entries(before)) {
    growth[name] = Math.max(0, (most[name] ?? kb) - kb) / 1024;
  }
  return growth;
}
