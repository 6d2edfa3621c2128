import { growthMb, processRssKb, vmRssKb } from './rss';

describe('vmRssKb', () => {
  it('reads the VmRSS line of /proc/<pid>/status', () => {
    const status = 'Name:\tnode\nVmPeak:\t  999999 kB\nVmRSS:\t  123456 kB\nRssAnon:\t 1 kB\n';
    expect(vmRssKb(status)).toBe(123456);
  });

  it('fails when there is none (a kernel thread, a process gone)', () => {
    expect(() => vmRssKb('Name:\tkthreadd\n')).toThrow(/VmRSS/);
  });
});

describe('processRssKb', () => {
  it('agrees with the RSS the process reports of itself', () => {
    const own = process.memoryUsage().rss / 1024;
    expect(Math.abs(processRssKb(process.pid) - own) / own).toBeLessThan(0.1);
  });
});

describe('growthMb', () => {
  it('is the most seen minus the start, in MB, never negative', () => {
    expect(growthMb({ gateway: 100_000, register: 200_000 }, { gateway: 202_400 })).toEqual({
      gateway: 100,
      register: 0,
    });
    expect(growthMb({ gateway: 100_000 }, { gateway: 50_000 })).toEqual({ gateway: 0 });
  });
});
