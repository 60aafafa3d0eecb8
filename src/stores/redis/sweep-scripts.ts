/**
 * Lua scripts of the Redis journal's settlement and sweeper. A sorted set (the due set) holds the
 * reference ids the sweeper may have work on, scored by a time (ms) no later than when they may next
 * be due: their last change, a next check, or the end of a lease. Oldest first, so what is due is
 * read before what is not yet. `CLAIM_DUE_SCRIPT` judges each candidate by the due rule of
 * src/journal/due.ts (with the query's own schedule), and claims it under a lease, moves it behind
 * what is due sooner (another merchant's, or not yet due under this schedule), or drops it when it
 * can never be due again, so a scan's bounded window always moves on.
 */
import { redisScript } from './commander.js';
import { READ_INTENT_LUA } from './intent-fields.js';

/**
 * KEYS: the due set. ARGV: the journal's key prefix, now (ms), limit, lease ms, lease, merchant ('' for
 * any), sending grace ms, first check ms, stuck age ms, '1' to settle, candidates to read at most.
 * The intents' keys are built from the prefix: every key of a journal shares the prefix's hash tag, so
 * on a cluster they sit in the due set's slot, as the keys the other scripts are given do.
 * Answers each claimed intent's fields (intent-fields.ts).
 */
export const CLAIM_DUE_SCRIPT = redisScript(`${READ_INTENT_LUA}
local due = KEYS[1]
local now = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local leaseUntil = now + tonumber(ARGV[4])
local claimed = {}
local candidates = redis.call('ZRANGEBYSCORE', due, '-inf', now, 'LIMIT', 0, tonumber(ARGV[11]))
for _, ref in ipairs(candidates) do
  if #claimed >= limit then break end
  local key = ARGV[1] .. 'intent:' .. ref
  local f = redis.call('HMGET', key, 'state', 'transactionStatus', 'transactionId', 'merchant', 'settledAt',
    'leaseUntil', 'nextCheckMs', 'updatedMs', 'createdMs')
  local state, status, id, merchant, settled = f[1], f[2], f[3], f[4], f[5]
  if state == 'applied' then
    -- Written by an earlier version: the state of its outcome.
    if status == 'completed' or status == 'failed' then state = status else state = 'accepted' end
  end
  local held = tonumber(f[6] or '') or 0
  local nextCheck = tonumber(f[7] or '')
  local updated = tonumber(f[8] or '') or 0
  local created = tonumber(f[9] or '') or 0
  -- when: the time it is due; false: never again; 'later': not for this sweeper (another merchant's,
  -- or a settlement when this one does not settle): left as it is, for the sweeper it is for.
  local when = false
  if not state then
    when = false
  elseif merchant and ARGV[6] ~= '' and merchant ~= ARGV[6] then
    when = 'later'
  elseif state == 'sending' then
    when = nextCheck or (updated + tonumber(ARGV[7]))
  elseif state == 'unknown' then
    when = nextCheck or updated
  elseif state == 'completed' or state == 'failed' or state == 'refused' then
    if settled then when = false elseif ARGV[10] == '1' then when = 0 else when = 'later' end
  elseif state == 'accepted' then
    if not id then
      when = false
    elseif created + tonumber(ARGV[9]) <= now then
      -- Stuck under this query's age; a sweeper with a longer one may still read it.
      when = 'later'
    else
      when = nextCheck or (updated + tonumber(ARGV[8]))
    end
  end
  if when == false then
    redis.call('ZREM', due, ref)
  elseif when == 'later' then
    -- Due for another sweeper: moved behind what is due sooner, so it never fills this one's window.
    redis.call('ZADD', due, now, ref)
  elseif held > now then
    redis.call('ZADD', due, held, ref)
  elseif when > now then
    -- Not due under this query's schedule; another query may differ, so it moves on only to now (or
    -- its next check), which is never later than it may be due.
    redis.call('ZADD', due, nextCheck or now, ref)
  else
    redis.call('HSET', key, 'lease', ARGV[5], 'leaseUntil', leaseUntil)
    redis.call('ZADD', due, leaseUntil, ref)
    claimed[#claimed + 1] = readIntent(key)
  end
end
return claimed`);

/**
 * KEYS: intent, the due set. ARGV: lease, now (ms), lease ms, reference id.
 * Claims the settlement of a final (or refused), unsettled intent no live lease holds; answers its
 * fields (intent-fields.ts), or false.
 */
export const CLAIM_SETTLEMENT_SCRIPT = redisScript(`${READ_INTENT_LUA}
local f = redis.call('HMGET', KEYS[1], 'transactionStatus', 'settledAt', 'leaseUntil', 'state')
if not (f[1] == 'completed' or f[1] == 'failed' or f[4] == 'refused') or f[2] then return false end
if (tonumber(f[3] or '') or 0) > tonumber(ARGV[2]) then return false end
local leaseUntil = tonumber(ARGV[2]) + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'lease', ARGV[1], 'leaseUntil', leaseUntil)
redis.call('ZADD', KEYS[2], leaseUntil, ARGV[4])
return readIntent(KEYS[1])`);

/**
 * KEYS: intent, the due set. ARGV: lease, now (ISO 8601), reference id.
 * Marks the intent settled when the lease still holds it; answers 1 if it did.
 */
export const COMPLETE_SETTLEMENT_SCRIPT = redisScript(`
if redis.call('HGET', KEYS[1], 'lease') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'settledAt', ARGV[2])
redis.call('HDEL', KEYS[1], 'lease', 'leaseUntil')
redis.call('ZREM', KEYS[2], ARGV[3])
return 1`);

/**
 * KEYS: intent, the due set. ARGV: lease, next check (ISO 8601, '' for none), next check (ms), reference id.
 * Frees a claimed intent and sets when it is next due, counting one check, when the lease still holds it;
 * a final (or refused) one not settled stays due at once, as the due rule says.
 */
export const RELEASE_DUE_SCRIPT = redisScript(`
if redis.call('HGET', KEYS[1], 'lease') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'lease', 'leaseUntil')
redis.call('HINCRBY', KEYS[1], 'checks', 1)
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'nextCheckAt', ARGV[2], 'nextCheckMs', ARGV[3]) end
local f = redis.call('HMGET', KEYS[1], 'state', 'transactionStatus', 'settledAt')
local final = f[1] == 'completed' or f[1] == 'failed' or f[1] == 'refused'
  or (f[1] == 'applied' and (f[2] == 'completed' or f[2] == 'failed'))
-- A final payment not settled is owed its settlement whatever its next check says (the due rule).
if final and not f[3] then
  redis.call('ZADD', KEYS[2], 0, ARGV[4])
else
  redis.call('ZADD', KEYS[2], tonumber(ARGV[3]) or 0, ARGV[4])
end
return 1`);
