import { developmentSecretKeys } from '@custodian/secret-cipher';
import { randomBytes } from 'node:crypto';
import { loadWorkerConfig } from './worker-config';

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadWorkerConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('WEBHOOK_SECRET_KEYS', () => {
  const nodeEnv = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = nodeEnv;
  });

  it('defaults to the development key in development and test, so npm start needs no setup', () => {
    for (const relaxed of ['development', 'test']) {
      process.env.NODE_ENV = relaxed;
      const config = loadWorkerConfig({});
      expect([config.WEBHOOK_SECRET_KEYS, config.WEBHOOK_ALLOW_PRIVATE_TARGETS]).toEqual([
        developmentSecretKeys('WEBHOOK_SECRET_KEYS'),
        'true',
      ]);
    }
  });

  it.each([['production'], ['staging'], [undefined]])(
    'is required, and private targets refused, with NODE_ENV %s',
    (nodeEnv) => {
      // An unset NODE_ENV (a container started without it) is secure too; before, only
      // `production` was.
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
      const message =
        'Invalid configuration: WEBHOOK_SECRET_KEYS is required unless NODE_ENV is development ' +
        'or test: a comma list of id:base64key, the first encrypting (generate a key with ' +
        'openssl rand -base64 32)';
      expect(refusal({})).toBe(message);
      expect(refusal({ WEBHOOK_SECRET_KEYS: '' })).toBe(message);
      const keys = `k1:${randomBytes(32).toString('base64')}`;
      const config = loadWorkerConfig({ WEBHOOK_SECRET_KEYS: keys });
      expect([config.WEBHOOK_SECRET_KEYS, config.WEBHOOK_ALLOW_PRIVATE_TARGETS]).toEqual([
        keys,
        'false',
      ]);
    },
  );

  it('refuses the development key outside development and test, under any id', () => {
    process.env.NODE_ENV = 'production';
    const development = developmentSecretKeys('WEBHOOK_SECRET_KEYS');
    const own = `k1:${randomBytes(32).toString('base64')}`;
    const message =
      'Invalid configuration: WEBHOOK_SECRET_KEYS holds the development key (id dev), which is ' +
      'public: unless NODE_ENV is development or test, use keys of your own (openssl rand -base64 32)';
    expect(refusal({ WEBHOOK_SECRET_KEYS: development })).toBe(message);
    expect(refusal({ WEBHOOK_SECRET_KEYS: `${own},${development.replace(/^dev:/, 'old:')}` })).toBe(
      message,
    );
    expect(refusal({ WEBHOOK_SECRET_KEYS: `dev:${randomBytes(32).toString('base64')}` })).toBe(
      message,
    );
  });

  it('refuses a malformed list at start, naming the setting and the entry', () => {
    expect(refusal({ WEBHOOK_SECRET_KEYS: 'k1:c2hvcnQ=' })).toBe(
      'Invalid configuration: WEBHOOK_SECRET_KEYS: key k1 must be 32 bytes in base64 ' +
        '(openssl rand -base64 32); it has 5',
    );
    expect(refusal({ WEBHOOK_SECRET_KEYS: `${randomBytes(32).toString('base64')}` })).toBe(
      'Invalid configuration: WEBHOOK_SECRET_KEYS: entry 1 must be id:base64key',
    );
  });
});
