import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** One key of a key list: its id (carried by every value it encrypts) and its 32 bytes. */
export interface SecretKey {
  id: string;
  key: Buffer;
}

export type SecretCipherFailure = 'malformed' | 'unknown_key' | 'unreadable';

/** A stored value that does not decrypt; the message names the key id, never key material. */
export class SecretCipherError extends Error {
  constructor(
    message: string,
    readonly reason: SecretCipherFailure,
    readonly keyId: string | null,
  ) {
    super(message);
    this.name = 'SecretCipherError';
  }
}

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
/** 96-bit IVs, GCM's native size; random, so a key may encrypt about 2^32 values safely. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]+={0,2}|[A-Za-z0-9_-]+)$/;

/**
 * Parses `id:base64key,id:base64key,...`; throws an Error naming `setting` (the variable it
 * came from) and the entry at fault.
 */
export function parseSecretKeys(value: string, setting: string): SecretKey[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) {
    throw new Error(`${setting} must list at least one key as id:base64key`);
  }
  const keys: SecretKey[] = [];
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(':');
    if (colon <= 0) throw new Error(`${setting}: entry ${index + 1} must be id:base64key`);
    const id = entry.slice(0, colon);
    const encoded = entry.slice(colon + 1).trim();
    if (!KEY_ID.test(id)) {
      throw new Error(`${setting}: key id ${id} must be 1 to 32 letters, digits, _ or -`);
    }
    if (keys.some((key) => key.id === id)) {
      throw new Error(`${setting}: key id ${id} is listed twice`);
    }
    const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : null;
    if (key?.length !== KEY_BYTES) {
      throw new Error(
        `${setting}: key ${id} must be ${KEY_BYTES} bytes in base64 (openssl rand -base64 32); ` +
          (key ? `it has ${key.length}` : 'it is not base64'),
      );
    }
    keys.push({ id, key });
  });
  return keys;
}

/**
 * The key list used where `setting` is not set outside production (`npm start`, tests): one
 * key, id `dev`, derived from the setting's name so that every process of a development stack
 * (migrations included) agrees on it without setup. It is public, so it protects nothing.
 */
export function developmentSecretKeys(setting: string): string {
  const key = createHash('sha256')
    .update(`custodian development key of ${setting}; not secret, never for production`)
    .digest('base64');
  return `dev:${key}`;
}

/**
 * Encrypts secrets that must stay recoverable (a webhook signing secret: the worker signs with
 * it) so that the database alone does not give them away. AES-256-GCM with a random IV; the
 * stored form is `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url), and its prefix is
 * authenticated with it, so neither the key id nor any part can be changed unnoticed.
 *
 * The first key encrypts; any key of the list decrypts what it encrypted. A key is rotated by
 * putting a new one first, re-encrypting the values under the old one, then dropping it.
 */
export class SecretCipher {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly current: SecretKey;
  readonly currentKeyId: string;

  /** `setting` names the key list's variable in error messages. */
  constructor(
    keys: readonly SecretKey[],
    private readonly setting: string,
  ) {
    const [current] = keys;
    if (!current) throw new Error(`${setting} must list at least one key as id:base64key`);
    this.current = current;
    this.currentKeyId = current.id;
    this.keys = new Map(keys.map((key) => [key.id, key.key]));
  }

  static fromSetting(value: string, setting: string): SecretCipher {
    return new SecretCipher(parseSecretKeys(value, setting), setting);
  }

  /** The id of the key a stored value names, or null when it is not in this format. */
  static keyIdOf(stored: string): string | null {
    const parts = stored.split(':');
    const [version, id = ''] = parts;
    return parts.length === 5 && version === VERSION && KEY_ID.test(id) ? id : null;
  }

  holds(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  /** Whether a stored value is encrypted with the current (first) key. */
  isCurrent(stored: string): boolean {
    return SecretCipher.keyIdOf(stored) === this.currentKeyId;
  }

  encrypt(plain: string): string {
    const { id, key } = this.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(`${VERSION}:${id}`));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, id, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join(':');
  }

  /** The plain secret, or a SecretCipherError (never a wrong plain text: GCM authenticates). */
  decrypt(stored: string): string {
    const id = SecretCipher.keyIdOf(stored);
    if (id === null) {
      throw new SecretCipherError(
        `a stored secret is not in the ${VERSION} format`,
        'malformed',
        null,
      );
    }
    const key = this.keys.get(id);
    if (!key) {
      throw new SecretCipherError(
        `a secret is encrypted with key ${id}, which ${this.setting} does not hold`,
        'unknown_key',
        id,
      );
    }
    const [iv, tag, ciphertext] = stored
      .split(':')
      .slice(2)
      .map((part) => Buffer.from(part, 'base64url'));
    try {
      const decipher = createDecipheriv(ALGORITHM, key, iv ?? Buffer.alloc(0), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(`${VERSION}:${id}`));
      decipher.setAuthTag(tag ?? Buffer.alloc(0));
      return Buffer.concat([
        decipher.update(ciphertext ?? Buffer.alloc(0)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretCipherError(
        `a secret encrypted with key ${id} does not decrypt with that key of ${this.setting} ` +
          '(another key of the same id, or the stored value was changed)',
        'unreadable',
        id,
      );
    }
  }
}

/**
 * Why a key list set in `setting` is refused, or null: the check each app's config runs on its
 * key list. Unless `relaxed` (NODE_ENV development or test) the list is required and the
 * development key (in the source, so public) is refused whatever id it is given.
 */
export function secretKeysProblem(
  value: unknown,
  setting: string,
  relaxed: boolean,
): string | null {
  if (typeof value !== 'string' || value.trim() === '') {
    return (
      `${setting} is required unless NODE_ENV is development or test: a comma ` +
      'list of id:base64key, the first encrypting (generate a key with openssl rand -base64 32)'
    );
  }
  try {
    const keys = parseSecretKeys(value, setting);
    const [development] = parseSecretKeys(developmentSecretKeys(setting), 'dev');
    if (
      !relaxed &&
      keys.some((key) => key.id === 'dev' || (development && key.key.equals(development.key)))
    ) {
      return (
        `${setting} holds the development key (id dev), which is public: unless ` +
        'NODE_ENV is development or test, use keys of your own (openssl rand -base64 32)'
      );
    }
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
