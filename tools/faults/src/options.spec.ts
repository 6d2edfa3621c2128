import { USAGE, UsageError, parseArgs } from './options';

describe('parseArgs', () => {
  it('runs one replica of each app unless told otherwise', () => {
    expect(parseArgs([])).toMatchObject({ replicas: 1, short: false });
    expect(parseArgs(['--replicas', '2', '--short'])).toMatchObject({ replicas: 2, short: true });
    expect(parseArgs(['--replicas', '1']).replicas).toBe(1);
  });

  it('refuses a replica count other than 1 or 2, saying what it takes', () => {
    for (const argv of [
      ['--replicas', '3'],
      ['--replicas', '0'],
      ['--replicas', 'two'],
      ['--replicas'],
    ]) {
      expect(() => parseArgs(argv)).toThrow(UsageError);
    }
    expect(() => parseArgs(['--replicas', '3'])).toThrow('--replicas takes 1 or 2, not 3');
    expect(() => parseArgs(['--replicas'])).toThrow('--replicas takes 1 or 2, not nothing');
  });

  it('takes the short run from FAULTS_SHORT too, and refuses what it does not know', () => {
    expect(parseArgs([], { FAULTS_SHORT: '1' }).short).toBe(true);
    expect(() => parseArgs(['--fast'])).toThrow('unknown argument --fast');
    expect(USAGE).toContain('--replicas');
  });
});
