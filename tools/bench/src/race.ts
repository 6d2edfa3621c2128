import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { markdownTable, ms } from './read-cases';
import { benchStackEnv, deleteBenchTopology, dropDatabase, startApps, stopAll } from './processes';
import { summarizeRace, type RaceAnswer } from './race-summary';
import { createTenant } from './tenant';

/** Concurrent overlapping bookings of one asset a round (issue 32's race: 50). */
const RACERS = Number(process.env.BENCH_RACERS ?? 50);
const ROUNDS = Number(process.env.BENCH_RACE_ROUNDS ?? 20);
/** The gateway's API; the health ports follow it (startApps). */
const PORT = 3290;
const API = `http://127.0.0.1:${PORT}/api/v1`;
const HOUR_MS = 60 * 60 * 1000;

/**
 * `npm run bench -- race`: issue 32's race. Each of BENCH_RACE_ROUNDS (20) rounds sends
 * BENCH_RACERS (50) POST /bookings at once, for one asset over ranges that all overlap (a day
 * of its own each round, starts a few seconds apart), through the whole stack with a write
 * key; the exclusion constraint lets one commit. Prints the statuses (201, 409, anything else),
 * how many rounds gave exactly one 201 and 409s for the rest, and the latencies.
 */
export async function benchRace(): Promise<void> {
  const run = randomBytes(3).toString('hex');
  const env = benchStackEnv(run);
  const database = `custodian_bench_${run}`;
  let children: ChildProcess[] = [];
  try {
    const stack = await startApps(env, PORT);
    children = stack.children;
    const tenant = await createTenant(env, 'Bench race', { scope: 'write' });
    const headers = {
      authorization: `Bearer ${tenant.key.key}`,
      'content-type': 'application/json',
    };
    const create = async (path: string, body: unknown): Promise<{ id: string }> => {
      const response = await fetch(`${API}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      if (response.status !== 201) {
        throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      }
      return (await response.json()) as { id: string };
    };
    const person = await create('/people', { full_name: 'Race person' });
    const asset = await create('/assets', { name: 'Race camera' });

    const rounds: RaceAnswer[][] = [];
    const roundMs: number[] = [];
    const firstDay = Date.now() + 24 * HOUR_MS;
    for (let round = 0; round < ROUNDS; round++) {
      const day = firstDay + round * 24 * HOUR_MS;
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: RACERS }, async (_, i): Promise<RaceAnswer> => {
          const sent = performance.now();
          try {
            const response = await fetch(`${API}/bookings`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                person_id: person.id,
                asset_ids: [asset.id],
                starts_at: new Date(day + i * 1000).toISOString(),
                ends_at: new Date(day + 8 * HOUR_MS).toISOString(),
              }),
            });
            await response.arrayBuffer();
            return { status: response.status, ms: performance.now() - sent };
          } catch {
            return { status: 0, ms: performance.now() - sent };
          }
        }),
      );
      roundMs.push(performance.now() - started);
      rounds.push(answers);
    }

    const summary = summarizeRace(rounds, roundMs);
    const statuses = Object.entries(summary.statuses)
      .map(([status, n]) => `${status === '0' ? 'no answer' : status}: ${n}`)
      .join(', ');
    console.log(
      `\nThe race: ${ROUNDS} rounds of ${RACERS} concurrent overlapping POST /bookings of one ` +
        `asset (a day of its own each round); ${statuses}\n`,
    );
    console.log(
      markdownTable(
        [
          'rounds',
          '201',
          '409',
          'other',
          'one 201, 409s for the rest',
          'p50 ms',
          'p99 ms',
          '201 p50 / p99 ms',
          '409 p50 / p99 ms',
          'slowest round ms',
        ],
        [
          [
            String(summary.rounds),
            String(summary.statuses['201'] ?? 0),
            String(summary.statuses['409'] ?? 0),
            String(
              summary.requests - (summary.statuses['201'] ?? 0) - (summary.statuses['409'] ?? 0),
            ),
            `${summary.clean} of ${summary.rounds}`,
            ms(summary.p50),
            ms(summary.p99),
            `${ms(summary.created.p50)} / ${ms(summary.created.p99)}`,
            `${ms(summary.refused.p50)} / ${ms(summary.refused.p99)}`,
            ms(summary.slowestRoundMs),
          ],
        ],
      ),
    );
  } finally {
    await stopAll(children);
    await dropDatabase(database);
    await deleteBenchTopology(env);
  }
}
