import { marginalCpuMs, statCpuMs } from './cpu';

describe('statCpuMs', () => {
  it('adds utime and stime, in ms, counting fields after the command name', () => {
    // A command name with spaces and a parenthesis, as a renamed process may have.
    const line =
      '4242 (node (main) x) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 11 0 100 0 0';
    expect(statCpuMs(line)).toBe(3250);
  });

  it('throws on a line without the CPU fields', () => {
    expect(() => statCpuMs('4242 (node) S 1')).toThrow(/utime/);
  });
});

describe('marginalCpuMs', () => {
  it('takes each process its own idle work over the same wall time before dividing', () => {
    // 400 ms spent over 10 s, 5 ms a second of it idle work: 350 ms for 100 answers.
    const marginal = marginalCpuMs(
      { gateway: 400, register: 120 },
      { gateway: 5, register: 2 },
      10_000,
      100,
    );
    expect(marginal.gateway).toBeCloseTo(3.5);
    expect(marginal.register).toBeCloseTo(1.0);
  });

  it('never goes below zero, and a process without an idle figure keeps all it spent', () => {
    const marginal = marginalCpuMs({ gateway: 10, worker: 30 }, { gateway: 50 }, 1_000, 10);
    expect(marginal.gateway).toBe(0);
    expect(marginal.worker).toBe(3);
  });

  it('counts no answers as one, so an idle slice gives its leftover rather than infinity', () => {
    expect(marginalCpuMs({ gateway: 12 }, { gateway: 1 }, 2_000, 0).gateway).toBe(10);
  });
});
