/**
 * The warm path of every authenticated request in one Redis round trip: read the cached
 * access record, apply the per-minute window and the monthly quota, count, and mark the
 * month's counter for the flush to Postgres. Atomic, so exact across gateway processes.
 *
 * KEYS[1]  the access record (RedisKeys.accessRecord)
 * ARGV[1]  stem of the month counters     ARGV[2]  minute window id
 * ARGV[3]  month id (`2026-11`)
 * ARGV[4]  '1' if the request counts toward the quota (everything but /ping)
 * ARGV[5]  seconds the window counter lives
 * ARGV[6]  stem of the window counters    ARGV[7]  the set of changed month counters
 * (the stems come from scriptStems in redis/redis-keys.ts, already prefixed; the script
 * completes them with the key id, which only the record tells)
 *
 * Returns {'miss'} when the record or the month's counter is not in Redis (the caller loads
 * them from Postgres, seeds them and asks again), else {verdict, record, windowUsed,
 * monthUsed, monthReached} where verdict is 'ok', 'rate' or 'quota' and monthReached is 1 on
 * the request that used the last unit of the quota.
 */
export const ACCESS_GATE_SCRIPT = `
local raw = redis.call('GET', KEYS[1])
if not raw then return {'miss'} end
local record = cjson.decode(raw)
if record.revoked or not record.apiAccess then return {'ok', raw, 0, 0, 0} end
local monthKey = ARGV[1] .. record.keyId .. ':' .. ARGV[3]
local monthUsed = redis.call('GET', monthKey)
if not monthUsed then return {'miss'} end
monthUsed = tonumber(monthUsed)
local windowKey = ARGV[6] .. record.keyId .. ':' .. ARGV[2]
local windowUsed = tonumber(redis.call('GET', windowKey) or '0')
local rate = record.limits.ratePerMinute
local quota = record.limits.monthlyQuota
local counts = ARGV[4] == '1'
if type(rate) == 'number' and windowUsed >= rate then
  return {'rate', raw, windowUsed, monthUsed, 0}
end
if counts and type(quota) == 'number' and monthUsed >= quota then
  return {'quota', raw, windowUsed, monthUsed, 0}
end
windowUsed = redis.call('INCR', windowKey)
if windowUsed == 1 then redis.call('EXPIRE', windowKey, ARGV[5]) end
local reached = 0
if counts then
  monthUsed = redis.call('INCR', monthKey)
  redis.call('SADD', ARGV[7], record.keyId .. ':' .. ARGV[3])
  if type(quota) == 'number' and monthUsed == quota then reached = 1 end
end
return {'ok', raw, windowUsed, monthUsed, reached}
`;

/** Failed authentications per client address and minute: INCR with its expiry, atomically. */
export const CLIENT_ADDRESS_SCRIPT = `
local used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return used
`;
