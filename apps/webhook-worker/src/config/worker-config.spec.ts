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

  it('defaults to the development key outside production, so npm start needs no setup', () => {
    expect(loadWorkerConfig({}).WEBHOOK_SECRET_KEYS).toBe(
      developmentSecretKeys('WEBHOOK_SECRET_KEYS'),
    );
  });

  it('is required in production, and the message says how to make a key', () => {
    process.env.NODE_ENV = 'production';
    const message =
      'Invalid configuration: WEBHOOK_SECRET_KEYS is required when NODE_ENV=production: a ' +
      'comma list of id:base64key, the first encrypting (generate a key with openssl rand -base64 32)';
    expect(refusal({})).toBe(message);
    expect(refusal({ WEBHOOK_SECRET_KEYS: '' })).toBe(message);
    const keys = `k1:${randomBytes(32).toString('base64')}`;
    expect(loadWorkerConfig({ WEBHOOK_SECRET_KEYS: keys }).WEBHOOK_SECRET_KEYS).toBe(keys);
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
