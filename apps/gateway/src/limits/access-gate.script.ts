/**
 * A key's month counter is a hash: `gen` (a random id given when the counter is created, from
 * Postgres's count: access-gate.ts `seed`), `floor` and `n`; the count is floor + n. A gateway
 * sends what it knows that the counter may not (usage-ledger.ts): the highest count it read
 * and the generation it read it from, and the requests it served while Redis was away.
 * `settle` raises the floor to a count read from an earlier generation (Redis lost data since:
 * every count Redis ever answered is at most the true one, so a maximum never counts twice)
 * and adds the unsent requests to `n` (each gateway sends only its own, once). A count read
 * from the current generation already includes `n`, so it never raises the floor.
 *
 * Returns floor, n and the count before.
 */
const SETTLE = `
local function settle(monthKey, counter, generation, seen, unsent)
  local floor = tonumber(counter[2])
  local added = tonumber(counter[3])
  local before = floor + added
  if counter[1] ~= generation and seen > floor then
    floor = seen
    redis.call('HSET', monthKey, 'floor', floor)
  end
  if unsent > 0 then added = redis.call('HINCRBY', monthKey, 'n', unsent) end
  return floor, added, before
end
`;

/**
 * The warm path of every authenticated request in one Redis round trip: read the cached
 * access record, settle the month's counter (above), apply the per-minute window and the
 * monthly quota, count, and mark the month's counter for the flush to Postgres. Atomic, so
 * exact across gateway processes.
 *
 * KEYS[1]  the access record (RedisKeys.accessRecord)
 * ARGV[1]  stem of the month counters     ARGV[2]  minute window id
 * ARGV[3]  month id (`2026-11`)
 * ARGV[4]  '1' if the request counts toward the quota (everything but /ping)
 * ARGV[5]  seconds the window counter lives
 * ARGV[6]  stem of the window counters    ARGV[7]  the set of changed month counters
 * ARGV[8]  the caller's generation, ARGV[9] its highest count, ARGV[10] its unsent requests
 * (the stems come from scriptStems in redis/redis-keys.ts, already prefixed; the script
 * completes them with the key id, which only the record tells)
 *
 * Returns {'miss'} when the record or the month's counter is not in Redis (the caller loads
 * them from Postgres, seeds them and asks again), else {verdict, record, windowUsed,
 * monthUsed, monthReached, generation} where verdict is 'ok', 'rate' or 'quota', monthReached
 * is 1 when this call took the count from below the quota to it (the request that used the
 * last unit, or unsent requests added), and generation is '' when the counter was not read
 * (a revoked key or a plan without API access: the unsent requests were not added).
 */
export const ACCESS_GATE_SCRIPT = `${SETTLE}
local raw = redis.call('GET', KEYS[1])
if not raw then return {'miss'} end
local record = cjson.decode(raw)
if record.revoked or not record.apiAccess then return {'ok', raw, 0, 0, 0, ''} end
local member = record.keyId .. ':' .. ARGV[3]
local monthKey = ARGV[1] .. member
local counter = redis.call('HMGET', monthKey, 'gen', 'floor', 'n')
if not counter[1] then return {'miss'} end
local floor, added, before = settle(monthKey, counter, ARGV[8], tonumber(ARGV[9]), tonumber(ARGV[10]))
local windowKey = ARGV[6] .. record.keyId .. ':' .. ARGV[2]
local windowUsed = tonumber(redis.call('GET', windowKey) or '0')
local rate = record.limits.ratePerMinute
local quota = record.limits.monthlyQuota
local counts = ARGV[4] == '1'
local verdict = 'ok'
if type(rate) == 'number' and windowUsed >= rate then
  verdict = 'rate'
elseif counts and type(quota) == 'number' and floor + added >= quota then
  verdict = 'quota'
else
  windowUsed = redis.call('INCR', windowKey)
  if windowUsed == 1 then redis.call('EXPIRE', windowKey, ARGV[5]) end
  if counts then added = redis.call('HINCRBY', monthKey, 'n', 1) end
end
local monthUsed = floor + added
if monthUsed ~= before then redis.call('SADD', ARGV[7], member) end
local reached = 0
if type(quota) == 'number' and before < quota and monthUsed >= quota then reached = 1 end
return {verdict, raw, windowUsed, monthUsed, reached, counter[1]}
`;

/**
 * What a gateway knows of a key's month, brought to Redis without a request (UsageFlusher):
 * settles the counter and marks it for the next flush, so that Postgres catches up.
 *
 * KEYS[1] the month counter   KEYS[2] the set of changed month counters
 * ARGV[1] member (`<keyId>:<month>`), ARGV[2] generation, ARGV[3] highest count, ARGV[4] unsent
 *
 * Returns {'miss'} when the counter is not in Redis, else {generation, count}.
 */
export const SETTLE_USAGE_SCRIPT = `${SETTLE}
local counter = redis.call('HMGET', KEYS[1], 'gen', 'floor', 'n')
if not counter[1] then return {'miss'} end
local floor, added = settle(KEYS[1], counter, ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]))
redis.call('SADD', KEYS[2], ARGV[1])
return {counter[1], floor + added}
`;

/** Failed authentications per client address and minute: INCR with its expiry, atomically. */
export const CLIENT_ADDRESS_SCRIPT = `
local used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return used
`;
