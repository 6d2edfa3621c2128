import { displayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key-format';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function replaceAt(key: string, index: number, char: string): string {
  return `${key.slice(0, index)}${char}${key.slice(index + 1)}`;
}

describe('API key format', () => {
  describe('generateApiKey', () => {
    it('produces cus_ followed by 40 base62 characters that pass the checksum', () => {
      for (let i = 0; i < 50; i++) {
        const key = generateApiKey();
        expect(key).toMatch(/^cus_[0-9A-Za-z]{40}$/);
        expect(key).toHaveLength(44);
        expect(isWellFormedApiKey(key)).toBe(true);
      }
    });

    it('produces 1000 distinct keys', () => {
      const keys = new Set<string>();
      for (let i = 0; i < 1000; i++) keys.add(generateApiKey());
      expect(keys.size).toBe(1000);
    });
  });

  describe('isWellFormedApiKey', () => {
    const key = generateApiKey();

    it('rejects every single-character change of the body or the checksum', () => {
      let changes = 0;
      for (let index = 4; index < key.length; index++) {
        for (const char of BASE62) {
          if (char === key[index]) continue;
          const changed = replaceAt(key, index, char);
          if (isWellFormedApiKey(changed)) {
            throw new Error(`changing position ${index} to ${char} still passes: ${changed}`);
          }
          changes++;
        }
      }
      expect(changes).toBe(40 * 61);
    });

    it('rejects a wrong prefix', () => {
      const body = key.slice(4);
      for (const prefix of ['cux_', 'CUS_', 'cus-', 'sk_', '', 'cus']) {
        expect(isWellFormedApiKey(`${prefix}${body}`)).toBe(false);
      }
    });

    it('rejects a key that is too short or too long', () => {
      expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
      expect(isWellFormedApiKey(`${key}A`)).toBe(false);
      expect(isWellFormedApiKey(`${key.slice(0, 10)}A${key.slice(10)}`)).toBe(false);
      expect(isWellFormedApiKey('cus_')).toBe(false);
      expect(isWellFormedApiKey('')).toBe(false);
    });

    it('rejects characters outside base62 even at the right length', () => {
      for (const bad of ['-', '_', '+', '/', '=', ' ', 'é', '\n']) {
        expect(isWellFormedApiKey(replaceAt(key, 10, bad))).toBe(false);
        expect(isWellFormedApiKey(replaceAt(key, key.length - 1, bad))).toBe(false);
      }
      expect(isWellFormedApiKey(` ${key}`)).toBe(false);
      expect(isWellFormedApiKey(`${key}\n`)).toBe(false);
    });

    it('rejects a made-up key of the right shape', () => {
      expect(isWellFormedApiKey(`cus_${'A'.repeat(40)}`)).toBe(false);
      expect(isWellFormedApiKey(`cus_${'0'.repeat(40)}`)).toBe(false);
    });
  });

  describe('hashApiKey', () => {
    it('is 64 lowercase hex characters, stable, and differs between keys', () => {
      const key = generateApiKey();
      const hash = hashApiKey(key);
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hashApiKey(key)).toBe(hash);
      expect(hashApiKey(generateApiKey())).not.toBe(hash);
    });

    it('is the SHA-256 of the raw key', () => {
      // sha256("abc"), the FIPS 180-2 test vector
      expect(hashApiKey('abc')).toBe(
        'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      );
    });
  });

  describe('displayPrefix', () => {
    it('is the first 12 characters of the key', () => {
      const key = generateApiKey();
      const prefix = displayPrefix(key);
      expect(prefix).toHaveLength(12);
      expect(prefix.startsWith('cus_')).toBe(true);
      expect(key.startsWith(prefix)).toBe(true);
    });
  });
});
