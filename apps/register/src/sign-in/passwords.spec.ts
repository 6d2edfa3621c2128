import { hashPassword, verifyPassword } from './passwords';

describe('passwords', () => {
  it('are hashed with argon2id at m=19456, t=2, p=1, salted (two hashes of one password differ)', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse battery');
  });

  it('verify the right password, and not a wrong one or another case', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'correct horse batterY')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('refuse without a stored hash, after an argon2 verification all the same', async () => {
    await verifyPassword(null, 'warm up the dummy hash');
    const stored = await hashPassword('correct horse battery');
    const timed = async (work: () => Promise<boolean>) => {
      const started = process.hrtime.bigint();
      const result = await work();
      return { result, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    const unknown = await timed(() => verifyPassword(null, 'correct horse battery'));
    const wrong = await timed(() => verifyPassword(stored, 'not the password'));
    expect(unknown.result).toBe(false);
    expect(wrong.result).toBe(false);
    // 19 MiB of argon2 takes milliseconds; skipping it would take microseconds.
    expect(unknown.ms).toBeGreaterThan(wrong.ms / 4);
    expect(unknown.ms).toBeGreaterThan(2);
  });
});
