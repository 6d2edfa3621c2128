import { randomBytes } from 'node:crypto';
import {
  SecretCipher,
  SecretCipherError,
  developmentSecretKeys,
  parseSecretKeys,
} from './secret-cipher';

const SETTING = 'TEST_SECRET_KEYS';
const key = () => randomBytes(32).toString('base64');

function problem(setting: string): string {
  try {
    parseSecretKeys(setting, SETTING);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`expected ${setting} to be refused`);
}

function failure(cipher: SecretCipher, stored: string): SecretCipherError {
  try {
    cipher.decrypt(stored);
  } catch (error) {
    expect(error).toBeInstanceOf(SecretCipherError);
    return error as SecretCipherError;
  }
  throw new Error('expected the decryption to fail');
}

describe('SecretCipher (AES-256-GCM, keys by id)', () => {
  const k1 = `k1:${key()}`;
  const k2 = `k2:${key()}`;
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;

  it('round-trips, as v1:<key id>:<iv>:<tag>:<ciphertext>, with no plain text in it', () => {
    const cipher = SecretCipher.fromSetting(k1, SETTING);
    const stored = cipher.encrypt(secret);
    expect(stored).toMatch(/^v1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain('whsec_');
    expect(cipher.decrypt(stored)).toBe(secret);
    // A fresh IV each time: the same secret never encrypts to the same text.
    expect(cipher.encrypt(secret)).not.toBe(stored);
  });

  it('fails with another key of the same id, naming no key material', () => {
    const stored = SecretCipher.fromSetting(k1, SETTING).encrypt(secret);
    const other = SecretCipher.fromSetting(`k1:${key()}`, SETTING);
    const error = failure(other, stored);
    expect(error.reason).toBe('unreadable');
    expect(error.keyId).toBe('k1');
    expect(error.message).toBe(
      `a secret encrypted with key k1 does not decrypt with that key of ${SETTING} (another key of the same id, or the stored value was changed)`,
    );
  });

  it('fails for a key id it does not hold, naming the setting', () => {
    const stored = SecretCipher.fromSetting(k1, SETTING).encrypt(secret);
    const error = failure(SecretCipher.fromSetting(k2, SETTING), stored);
    expect(error.reason).toBe('unknown_key');
    expect(error.keyId).toBe('k1');
    expect(error.message).toBe(`a secret is encrypted with key k1, which ${SETTING} does not hold`);
  });

  it('fails on any tampered part: ciphertext, tag, IV, or the key id swapped', () => {
    const cipher = SecretCipher.fromSetting(`${k1},${k2}`, SETTING);
    const stored = cipher.encrypt(secret);
    const [version, id, iv, tag, ct] = stored.split(':') as [
      string,
      string,
      string,
      string,
      string,
    ];
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0]! ^= 1;
      return bytes.toString('base64url');
    };
    for (const tampered of [
      [version, id, iv, tag, flip(ct)],
      [version, id, iv, flip(tag), ct],
      [version, id, flip(iv), tag, ct],
      [version, 'k2', iv, tag, ct],
    ]) {
      expect(failure(cipher, tampered.join(':')).reason).toBe('unreadable');
    }
  });

  it('refuses what is not in its format, a plain secret included', () => {
    const cipher = SecretCipher.fromSetting(k1, SETTING);
    for (const value of [secret, 'v1:k1:abc', 'v2:k1:a:b:c', '']) {
      expect(failure(cipher, value).reason).toBe('malformed');
    }
    expect(failure(cipher, secret).message).toBe('a stored secret is not in the v1 format');
    expect(SecretCipher.keyIdOf(secret)).toBeNull();
  });

  it('encrypts with the first key and decrypts with whichever key the value names (rotation)', () => {
    const old = SecretCipher.fromSetting(k1, SETTING);
    const underOld = old.encrypt(secret);
    const rotated = SecretCipher.fromSetting(`${k2},${k1}`, SETTING);
    expect(rotated.currentKeyId).toBe('k2');
    expect(rotated.decrypt(underOld)).toBe(secret);
    expect(rotated.isCurrent(underOld)).toBe(false);
    const underNew = rotated.encrypt(secret);
    expect(SecretCipher.keyIdOf(underNew)).toBe('k2');
    expect(rotated.isCurrent(underNew)).toBe(true);
    // The old ring alone cannot read what the new key wrote; the new key alone reads it.
    expect(failure(old, underNew).reason).toBe('unknown_key');
    expect(SecretCipher.fromSetting(k2, SETTING).decrypt(underNew)).toBe(secret);
    expect(rotated.holds('k1')).toBe(true);
    expect(rotated.holds('k3')).toBe(false);
  });
});

describe('parseSecretKeys', () => {
  it('takes id:base64key entries, standard or URL-safe base64, spaces around commas', () => {
    const raw = randomBytes(32);
    const keys = parseSecretKeys(
      ` a:${raw.toString('base64')} , b_2-x:${raw.toString('base64url')}`,
      SETTING,
    );
    expect(keys.map((k) => k.id)).toEqual(['a', 'b_2-x']);
    expect(keys.every((k) => k.key.equals(raw))).toBe(true);
  });

  it.each([
    [`${SETTING} must list at least one key as id:base64key`, ''],
    [`${SETTING} must list at least one key as id:base64key`, ' , '],
    [`${SETTING}: entry 1 must be id:base64key`, key()],
    [`${SETTING}: entry 2 must be id:base64key`, `k1:${key()},:${key()}`],
    [`${SETTING}: key id k.1 must be 1 to 32 letters, digits, _ or -`, `k.1:${key()}`],
    [`${SETTING}: key id k1 is listed twice`, `k1:${key()},k1:${key()}`],
    [
      `${SETTING}: key k1 must be 32 bytes in base64 (openssl rand -base64 32); it has 16`,
      `k1:${randomBytes(16).toString('base64')}`,
    ],
    [
      `${SETTING}: key k1 must be 32 bytes in base64 (openssl rand -base64 32); it is not base64`,
      'k1:not base64!',
    ],
  ])('refuses a bad list: %s', (message, setting) => {
    expect(problem(setting)).toBe(message);
  });

  it('never puts key material in a message', () => {
    const short = randomBytes(16).toString('base64');
    expect(problem(`k1:${short}`)).not.toContain(short);
  });
});

describe('developmentSecretKeys', () => {
  it('is one fixed, valid key per setting name, the same in every process', () => {
    const setting = developmentSecretKeys(SETTING);
    expect(setting).toBe(developmentSecretKeys(SETTING));
    expect(setting).not.toBe(developmentSecretKeys('OTHER_KEYS'));
    expect(parseSecretKeys(setting, SETTING).map((k) => k.id)).toEqual(['dev']);
  });
});
