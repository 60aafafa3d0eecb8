/**
 * Lua scripts that make each journal write atomic on the Redis server. An intent is a hash; each
 * state has a sorted set of reference ids scored by recording order; a transaction id maps to its
 * reference id. Every key a script touches is passed in KEYS (never built in Lua), so the commander can
 * route it and a cluster can check that all of them share the prefix's hash tag.
 */

import { redisScript } from './commander.js';

/** KEYS: intent, sequence, sending set. ARGV: reference id, endpoint, body JSON, now. */
export const RECORD_SCRIPT = redisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then
  local seq = redis.call('INCR', KEYS[2])
  redis.call('HSET', KEYS[1], 'referenceId', ARGV[1], 'endpoint', ARGV[2], 'body', ARGV[3],
    'state', 'sending', 'seq', seq, 'createdAt', ARGV[4], 'updatedAt', ARGV[4])
  redis.call('ZADD', KEYS[3], seq, ARGV[1])
end
return redis.call('HGETALL', KEYS[1])`);

/**
 * KEYS: intent, the sending, unknown, applied and refused sets, transaction index.
 * ARGV: reference id, state, transaction id, transaction status, reason, now ('' leaves a field).
 * A definite state (applied, refused) is never replaced by an indefinite one.
 */
export const UPDATE_SCRIPT = redisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local sets = { sending = KEYS[2], unknown = KEYS[3], applied = KEYS[4], refused = KEYS[5] }
local definite = { applied = true, refused = true }
local old = redis.call('HGET', KEYS[1], 'state')
local new = ARGV[2]
if new ~= '' and new ~= old and not (definite[old] and not definite[new]) then
  local seq = redis.call('HGET', KEYS[1], 'seq')
  redis.call('ZREM', sets[old], ARGV[1])
  redis.call('ZADD', sets[new], seq, ARGV[1])
  redis.call('HSET', KEYS[1], 'state', new)
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'transactionId', ARGV[3])
  redis.call('SET', KEYS[6], ARGV[1])
end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'transactionStatus', ARGV[4]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'reason', ARGV[5]) end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[6])
return redis.call('HGETALL', KEYS[1])`);
