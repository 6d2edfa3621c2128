import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks, 100 a second on every mainstream arch. */
const TICKS_PER_SECOND = 100;

/**
 * User plus system CPU time in a /proc/<pid>/stat line, in ms. The command name (field 2) is in
 * parentheses and may hold spaces, so the fields are counted from the last ')'.
 */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, utime field 14 and stime field 15 of the whole line.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) {
    throw new Error('no utime/stime in /proc/<pid>/stat');
  }
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

export function processCpuMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * CPU time each process spends from now until `stop()`, in ms. On a machine whose cores the load
 * generator, the apps and the services share, throughput moves with whatever else runs; the CPU
 * an app spends per request moves far less, so it shows an app's own cost more steadily.
 */
export function sampleCpu(pids: Record<string, number>): { stop: () => Record<string, number> } {
  const before: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) before[name] = processCpuMs(pid);
  return {
    stop: () => {
      const spent: Record<string, number> = {};
      for (const [name, pid] of Object.entries(pids)) {
        spent[name] = processCpuMs(pid) - (before[name] ?? 0);
      }
      return spent;
    },
  };
}

/**
 * CPU ms per answer beyond what each process spends with no load at all. `spent` is what each
 * process spent over `wallMs`, `idlePerSecond` what it spends a second when nothing is asked of
 * it (its timers and pollers). At a fixed, modest load a process's idle work weighs on every
 * answer; at saturation it is a small fixed share of the core, and what bounds the requests a
 * second is this marginal cost. Never below zero: idle work measured in a busier moment than
 * the load may exceed what the load left over.
 */
export function marginalCpuMs(
  spent: Record<string, number>,
  idlePerSecond: Record<string, number>,
  wallMs: number,
  answers: number,
): Record<string, number> {
  const marginal: Record<string, number> = {};
  for (const [name, ms] of Object.entries(spent)) {
    const idle = ((idlePerSecond[name] ?? 0) * wallMs) / 1000;
    marginal[name] = Math.max(0, ms - idle) / Math.max(1, answers);
  }
  return marginal;
}
