import { summarizeRace, type RaceAnswer } from './race-summary';

const answer = (status: number, ms: number): RaceAnswer => ({ status, ms });

describe('summarizeRace', () => {
  it('counts statuses and the rounds with one 201 and 409s for the rest', () => {
    const rounds = [
      [answer(201, 10), answer(409, 20), answer(409, 30)],
      [answer(201, 5), answer(201, 6), answer(409, 7)],
      [answer(201, 8), answer(409, 9), answer(503, 40)],
    ];
    const summary = summarizeRace(rounds, [31, 8, 41]);
    expect(summary.rounds).toBe(3);
    expect(summary.requests).toBe(9);
    expect(summary.statuses).toEqual({ 201: 4, 409: 4, 503: 1 });
    expect(summary.clean).toBe(1);
    expect(summary.slowestRoundMs).toBe(41);
    expect(summary.created).toEqual({ p50: 8, p99: 10 });
    expect(summary.refused.p99).toBe(30);
    expect(summary.p50).toBe(9);
    expect(summary.p99).toBe(40);
  });

  it('gives NaN latencies and no clean round for none', () => {
    const summary = summarizeRace([], []);
    expect(summary.clean).toBe(0);
    expect(summary.p99).toBeNaN();
    expect(summary.slowestRoundMs).toBe(0);
  });
});
