import { hash, verify } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';

/**
 * argon2id (the library's default algorithm) with OWASP's first recommended parameters: 19 MiB,
 * 2 passes, 1 lane. Written out so that a new default of the library does not change them
 * unseen; a stored hash carries its own parameters, so raising them later needs no migration.
 */
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** The hash checked when an e-mail has no password: the same work as a real check. */
let dummy: Promise<string> | null = null;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/**
 * Whether `password` matches `stored`. With no stored hash it still runs one verification (of
 * a hash of random bytes, which no password matches), so an unknown e-mail or one without a
 * password answers after the same time as a wrong password.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored !== null) return verify(stored, password);
  dummy ??= hashPassword(randomBytes(32).toString('base64url'));
  await verify(await dummy, password);
  return false;
}
