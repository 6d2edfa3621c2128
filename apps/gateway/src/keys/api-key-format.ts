import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = 'cus_';
const BODY_LENGTH = 34;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^cus_[0-9A-Za-z]{40}$/;
const DISPLAY_PREFIX_LENGTH = 12;

/**
 * `cus_` + 34 random base62 characters + a 6-character base62 CRC-32 of them. The checksum
 * lets the gateway refuse a mistyped or made-up key without touching Redis or Postgres.
 */
export function generateApiKey(): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return `${PREFIX}${body}${checksum(body)}`;
}

export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(PREFIX.length, PREFIX.length + BODY_LENGTH);
  return key.slice(PREFIX.length + BODY_LENGTH) === checksum(body);
}

/** Only this hash is stored; the raw key is shown once, at creation. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Enough of the key for a person to tell keys apart in a list, too little to guess it. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}
