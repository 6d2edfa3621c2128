import { statCpuMs } from './cpu';

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
