import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONTEXT_MODES, type ContextMode, type ContextResult } from './context-modes';
import { Sink } from './sink';
import { POSTGRES, runNode } from './processes';
import { changeCell, median } from './quantile';
import { rotated } from './rotation';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

/**
 * `npm run bench -- context`: what the request context and tracing add to one unit of the
 * register's work (a pool checkout and a query on the real Postgres), measured in one process
 * per mode and round, with nothing else in it: the CPU the process spent per unit. The stack
 * benches (`observability`) measure whole requests through three apps sharing a core, where
 * the spread is as large as the effect; this one separates the per-request mechanisms (an
 * AsyncLocalStorage in use, OpenTelemetry's context and pg instrumentation, recorded and
 * exported spans) to within a few per cent. Modes run in a rotated order each round.
 */
export async function benchContext(): Promise<void> {
  const sink = new Sink();
  await sink.start();
  const results: Array<ContextResult & { round: number }> = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const mode of rotated([...CONTEXT_MODES], round)) {
        const result = await runMode(mode, sink.url);
        console.log(
          `round ${round}: ${mode}: ${result.microsPerUnit.toFixed(1)} µs a unit, ${result.microsPerUnitWithExport.toFixed(1)} with the export`,
        );
        results.push({ ...result, round });
      }
    }
  } finally {
    await sink.stop();
  }
  printContextTable(results);
}

async function runMode(mode: ContextMode, sinkUrl: string): Promise<ContextResult> {
  const out = path.join(tmpdir(), `custodian-bench-context-${process.pid}-${mode}.json`);
  const child = runNode('tools/bench/src/context-child.js', {
    BENCH_CONTEXT_MODE: mode,
    BENCH_CONTEXT_OUT: out,
    DATABASE_URL: `${POSTGRES}/postgres`,
    OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
    OTEL_TRACES_SAMPLER: 'parentbased_always_on',
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`bench context: mode ${mode} exited with ${code}`);
  try {
    return JSON.parse(readFileSync(out, 'utf8')) as ContextResult;
  } finally {
    rmSync(out, { force: true });
  }
}

function printContextTable(results: Array<ContextResult & { round: number }>): void {
  console.log(
    `\nProcess CPU µs per unit (a pool checkout and a query), median over ${ROUNDS} round(s), and the median of each round's change against "none" with the middle half in brackets:\n`,
  );
  console.log('| mode | µs a unit | vs none | µs with the export | vs none |');
  console.log('| --- | --- | --- | --- | --- |');
  const of = (mode: ContextMode) => results.filter((result) => result.mode === mode);
  for (const mode of CONTEXT_MODES) {
    const cells = (['microsPerUnit', 'microsPerUnitWithExport'] as const).map((field) => {
      const values = of(mode).map((result) => result[field]);
      const ratios = of(mode).flatMap((result) => {
        const none = of('none').find((other) => other.round === result.round);
        return none ? [result[field] / none[field]] : [];
      });
      return `${median(values).toFixed(1)} | ${changeCell(ratios)}`;
    });
    console.log(`| ${mode} | ${cells.join(' | ')} |`);
  }
}
