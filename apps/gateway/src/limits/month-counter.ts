import { randomBytes } from 'node:crypto';
import type { ChainableCommander } from 'ioredis';
import { RedisKeys } from '../redis/redis-keys';
import { usageMonthOf } from './windows';

/** Month counters outlive their month a little, so a late flush still finds them. */
const GRACE_SECONDS = 7 * 86_400;

/**
 * Adds to `batch` the creation of a key's month counter at `count` (what Postgres holds),
 * unless the counter exists. Each creation is a new generation: a gateway holding a count
 * read from another generation knows Redis lost that counter since (access-gate.script.ts).
 * `batch` must be a MULTI: the script must never see the hash half made.
 */
export function seedMonthCounter(
  batch: ChainableCommander,
  keyId: string,
  month: string,
  count: number,
  nowMs: number,
): ChainableCommander {
  const key = RedisKeys.monthUsage(keyId, month);
  const ttl = Math.max(60, Math.ceil(usageMonthOf(month).endsAt - nowMs / 1000) + GRACE_SECONDS);
  return batch
    .hsetnx(key, 'gen', randomBytes(6).toString('hex'))
    .hsetnx(key, 'floor', String(count))
    .hsetnx(key, 'n', '0')
    .expire(key, ttl);
}
