import { quantile } from './quantile';

/** One POST of a round: its status (0: no answer) and how long it took, ms. */
export interface RaceAnswer {
  status: number;
  ms: number;
}

export interface RaceSummary {
  rounds: number;
  requests: number;
  /** Status → how many, over every round; `0` counts requests with no answer. */
  statuses: Record<string, number>;
  /** Rounds that gave exactly one 201 and a 409 to every other request. */
  clean: number;
  p50: number;
  p99: number;
  created: { p50: number; p99: number };
  refused: { p50: number; p99: number };
  /** The slowest round, first request sent to last answer, ms. */
  slowestRoundMs: number;
}

/** What the rounds of the race gave: `rounds[i]` its answers, `roundMs[i]` its wall time. */
export function summarizeRace(rounds: RaceAnswer[][], roundMs: number[]): RaceSummary {
  const all = rounds.flat();
  const statuses: Record<string, number> = {};
  for (const { status } of all) statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
  const times = (answers: RaceAnswer[]) => answers.map(({ ms }) => ms).sort((a, b) => a - b);
  const tail = (answers: RaceAnswer[]) => {
    const sorted = times(answers);
    return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
  };
  const clean = rounds.filter(
    (answers) =>
      answers.filter(({ status }) => status === 201).length === 1 &&
      answers.filter(({ status }) => status === 409).length === answers.length - 1,
  ).length;
  return {
    rounds: rounds.length,
    requests: all.length,
    statuses,
    clean,
    ...tail(all),
    created: tail(all.filter(({ status }) => status === 201)),
    refused: tail(all.filter(({ status }) => status === 409)),
    slowestRoundMs: Math.max(0, ...roundMs),
  };
}
