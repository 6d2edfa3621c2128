import { quantile } from './quantile';
import { processCpuMs } from './rpc-processes';

describe('processCpuMs', () => {
  it('reads the CPU time /proc reports, as the process itself sees it', () => {
    const until = Date.now() + 50;
    while (Date.now() < until) {
      // burn CPU so there is something to count
    }
    const { user, system } = process.cpuUsage();
    const own = (user + system) / 1000;
    // /proc counts in 10 ms ticks
    expect(Math.abs(processCpuMs(process.pid) - own)).toBeLessThan(25);
  });
});

describe('quantile', () => {
  it('picks the value at the quantile of a sorted list, NaN for none', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(sorted, 0.5)).toBe(51);
    expect(quantile(sorted, 0.99)).toBe(100);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
