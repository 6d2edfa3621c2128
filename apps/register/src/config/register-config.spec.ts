import { developmentSecretKeys } from '@custodian/secret-cipher';
import { randomBytes } from 'node:crypto';
import { heavyReadLimit, loadRegisterConfig } from './register-config';

function loadError(env: NodeJS.ProcessEnv): string {
  try {
    loadRegisterConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('the register config: overload limits', () => {
  it('defaults to half the pool for heavy reads, at most one per core, and a 100 ms margin', () => {
    const config = loadRegisterConfig({});
    expect(config.REGISTER_HEAVY_CONCURRENCY).toBeUndefined();
    expect(config.REGISTER_DEADLINE_MARGIN_MS).toBe(100);
    expect(heavyReadLimit(config, 16)).toBe(5);
    expect(heavyReadLimit(config, 2)).toBe(2);
    expect(heavyReadLimit(loadRegisterConfig({ DATABASE_POOL_SIZE: '30' }), 16)).toBe(9);
    expect(heavyReadLimit(loadRegisterConfig({ DATABASE_POOL_SIZE: '1' }), 16)).toBe(1);
    expect(heavyReadLimit(config)).toBeGreaterThanOrEqual(1);
  });

  it('keeps the default under half the prefetch, so fetches and writes always find a slot', () => {
    const config = loadRegisterConfig({ DATABASE_POOL_SIZE: '40', RPC_PREFETCH: '8' });
    expect(heavyReadLimit(config, 64)).toBe(3);
  });

  it('takes a limit that leaves fetches and writes a connection and a prefetch slot', () => {
    const config = loadRegisterConfig({
      REGISTER_HEAVY_CONCURRENCY: '2',
      REGISTER_DEADLINE_MARGIN_MS: '250',
    });
    expect(heavyReadLimit(config, 1)).toBe(2);
    expect(config.REGISTER_DEADLINE_MARGIN_MS).toBe(250);
  });

  it('refuses a limit that would give heavy reads the whole pool or the whole prefetch', () => {
    expect(loadError({ REGISTER_HEAVY_CONCURRENCY: '10' })).toMatch(
      /REGISTER_HEAVY_CONCURRENCY must be less than DATABASE_POOL_SIZE \(10\)/,
    );
    expect(loadError({ DATABASE_POOL_SIZE: '50', REGISTER_HEAVY_CONCURRENCY: '10' })).toMatch(
      /REGISTER_HEAVY_CONCURRENCY must be less than half of RPC_PREFETCH \(20\)/,
    );
    expect(loadError({ REGISTER_HEAVY_CONCURRENCY: '0' })).toMatch(/REGISTER_HEAVY_CONCURRENCY/);
    expect(loadError({ REGISTER_DEADLINE_MARGIN_MS: '-1' })).toMatch(/REGISTER_DEADLINE_MARGIN_MS/);
  });
});

describe('the register config: the due-date engine', () => {
  it('runs every 5 s by default and takes DUE_DATES_SWEEP_MS within its bounds', () => {
    expect(loadRegisterConfig({}).DUE_DATES_SWEEP_MS).toBe(5_000);
    expect(loadRegisterConfig({ DUE_DATES_SWEEP_MS: '100' }).DUE_DATES_SWEEP_MS).toBe(100);
    expect(loadError({ DUE_DATES_SWEEP_MS: '10' })).toMatch(/DUE_DATES_SWEEP_MS/);
    expect(loadError({ DUE_DATES_SWEEP_MS: 'soon' })).toMatch(/DUE_DATES_SWEEP_MS/);
  });

  it('still reads the old name, OVERDUE_SWEEP_MS, unless the new one is set', () => {
    expect(loadRegisterConfig({ OVERDUE_SWEEP_MS: '250' }).DUE_DATES_SWEEP_MS).toBe(250);
    expect(
      loadRegisterConfig({ OVERDUE_SWEEP_MS: '250', DUE_DATES_SWEEP_MS: '750' }).DUE_DATES_SWEEP_MS,
    ).toBe(750);
    // Validated under the new name, whichever name it came by.
    expect(loadError({ OVERDUE_SWEEP_MS: '10' })).toMatch(/DUE_DATES_SWEEP_MS/);
  });
});

describe('LICENSE_KEY_SECRETS', () => {
  const nodeEnv = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  it('defaults to the development key in development and test', () => {
    process.env.NODE_ENV = 'development';
    expect(loadRegisterConfig({}).LICENSE_KEY_SECRETS).toBe(
      developmentSecretKeys('LICENSE_KEY_SECRETS'),
    );
  });

  it('is required outside development and test, and the development key refused', () => {
    process.env.NODE_ENV = 'production';
    expect(loadError({})).toMatch(
      /LICENSE_KEY_SECRETS is required unless NODE_ENV is development or test/,
    );
    expect(
      loadError({ LICENSE_KEY_SECRETS: developmentSecretKeys('LICENSE_KEY_SECRETS') }),
    ).toMatch(/LICENSE_KEY_SECRETS holds the development key/);
    expect(loadError({ LICENSE_KEY_SECRETS: 'k1:short' })).toMatch(
      /LICENSE_KEY_SECRETS: key k1 must be 32 bytes/,
    );
    const keys = `k1:${randomBytes(32).toString('base64')}`;
    expect(loadRegisterConfig({ LICENSE_KEY_SECRETS: keys }).LICENSE_KEY_SECRETS).toBe(keys);
  });
});
