/**
 * Lua scripts that make each journal write atomic on the Redis server. An intent is a hash; each
 * state has a sorted set of reference ids scored by recording order; a transaction id maps to its
 * reference id. Every key a script touches is passed in KEYS (never built in Lua), so the commander can
 * route it and a cluster can check that all of them share the prefix's hash tag.
 */

import { DEFINITE_STATES, FINAL_STATES } from '../../journal/types.js';
import { redisScript } from './commander.js';
import { fieldAt, INTENT_FIELD_WORDS_LUA, INTENT_FIELDS, READ_INTENT_LUA } from './intent-fields.js';

/** Lua that is true when the variable `name` holds one of `states`, written from the journal's own sets. */
const luaIsOneOf = (name: string, states: Iterable<string>) =>
  [...states].map((state) => `${name} == '${state}'`).join(' or ');

/** Where the update script's read answers `seq` and `lease`: after the intent's own fields. */
const SEQ_AT = INTENT_FIELDS.length + 1;
const LEASE_AT = SEQ_AT + 1;

/**
 * KEYS: intent, sequence, the set of `sending`, the due set (see sweep-scripts.ts), the set by
 * recording time (scored in ms).
 * ARGV: reference id, endpoint, body JSON, now, merchant, recording call, user e-mail, metadata JSON
 * ('' for none), now in ms, the sending lease in ms ('' for none), the key fingerprint ('' for none).
 * An existing intent is kept as it is, counting one more record, and answered (intent-fields.ts). A
 * new one is held by the sending lease of the call that records it (`sending:` and its id), when both
 * are given, and answers 1 alone: the client builds it from what it sent (`freshIntent`).
 */
export const RECORD_SCRIPT = redisScript(`${READ_INTENT_LUA}
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'records', 1)
  return readIntent(KEYS[1])
end
local seq = redis.call('INCR', KEYS[2])
local fields = { 'referenceId', ARGV[1], 'endpoint', ARGV[2], 'body', ARGV[3], 'state', 'sending', 'seq', seq,
  'records', 1, 'createdAt', ARGV[4], 'updatedAt', ARGV[4], 'createdMs', ARGV[9], 'updatedMs', ARGV[9] }
local function optional(field, value)
  if value ~= '' then fields[#fields + 1] = field; fields[#fields + 1] = value end
end
optional('merchant', ARGV[5])
optional('recordedBy', ARGV[6])
optional('userEmail', ARGV[7])
optional('metadata', ARGV[8])
optional('keyFingerprint', ARGV[11])
if ARGV[6] ~= '' and ARGV[10] ~= '' then
  fields[#fields + 1] = 'lease'; fields[#fields + 1] = 'sending:' .. ARGV[6]
  fields[#fields + 1] = 'leaseUntil'; fields[#fields + 1] = tonumber(ARGV[9]) + tonumber(ARGV[10])
end
redis.call('HSET', KEYS[1], unpack(fields))
redis.call('ZADD', KEYS[3], seq, ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[9], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[9], ARGV[1])
return 1`);

/**
 * KEYS: intent, the transaction index, then one set per state, in the order of ARGV[7], then the
 * due set.
 * ARGV: reference id, state, transaction id, transaction status, reason, now ('' leaves a field),
 * the states naming the sets (comma-separated), the states the intent must be in ('' for any), the
 * call that must have created it ('' for any), now in ms, the path settling it ('' for none: kept
 * only by the update that moves the intent into completed or failed).
 * States move as `canMove` of src/journal/merge.ts allows: completed and failed never change, accepted
 * only into them, and no definite state goes back to sending or unknown; an intent an earlier version
 * left `applied` moves as an accepted one. A final status (completed, failed) is replaced by no
 * other. An outcome (any state but sending) frees the sending lease of the call that recorded the
 * intent. The intent is put back in the due set for the sweeper to judge, unless it can never be due
 * again (closed, settled); a refusal stays until it is settled, for onRefused. Answers the intent as
 * it now is (intent-fields.ts), or false when there is none. The intent is read once and written
 * once: the answer is what was read, with the changes made to it.
 */
export const UPDATE_SCRIPT = redisScript(`
local intent = redis.call('HMGET', KEYS[1], ${INTENT_FIELD_WORDS_LUA}, 'seq', 'lease')
local seq, lease = intent[${SEQ_AT}], intent[${LEASE_AT}]
intent[${LEASE_AT}] = nil
intent[${SEQ_AT}] = nil
local old = intent[${fieldAt('state')}]
if not old then return false end
if ARGV[8] ~= '' and not string.find(',' .. ARGV[8] .. ',', ',' .. old .. ',', 1, true) then return intent end
if ARGV[9] ~= '' and intent[${fieldAt('recordedBy')}] ~= ARGV[9] then return intent end
local changes = { 'updatedMs', ARGV[10], 'updatedAt', ARGV[6] }
intent[${fieldAt('updatedAt')}] = ARGV[6]
local function change(field, at, value)
  changes[#changes + 1] = field; changes[#changes + 1] = value
  intent[at] = value
end
local function setOf(state)
  local index = 3
  for named in string.gmatch(ARGV[7], '[^,]+') do
    if named == state then return KEYS[index] end
    index = index + 1
  end
end
local new = ARGV[2]
local from = old
if from == 'applied' then from = 'accepted' end
local fromFinal = ${luaIsOneOf('from', FINAL_STATES)}
local newFinal = ${luaIsOneOf('new', FINAL_STATES)}
local fromDefinite = ${luaIsOneOf('from', DEFINITE_STATES)}
local newDefinite = ${luaIsOneOf('new', DEFINITE_STATES)}
if new ~= '' and new ~= old and not fromFinal and not (from == 'accepted' and not newFinal)
  and not (fromDefinite and not newDefinite) then
  redis.call('ZREM', setOf(old), ARGV[1])
  redis.call('ZADD', setOf(new), seq, ARGV[1])
  change('state', ${fieldAt('state')}, new)
  if newFinal and ARGV[11] ~= '' then change('settledBy', ${fieldAt('settledBy')}, ARGV[11]) end
end
if ARGV[3] ~= '' then
  change('transactionId', ${fieldAt('transactionId')}, ARGV[3])
  redis.call('SET', KEYS[2], ARGV[1])
end
if ARGV[4] ~= '' then
  local status = intent[${fieldAt('transactionStatus')}]
  if status ~= 'completed' and status ~= 'failed' then
    change('transactionStatus', ${fieldAt('transactionStatus')}, ARGV[4])
  end
end
if ARGV[5] ~= '' then change('reason', ${fieldAt('reason')}, ARGV[5]) end
redis.call('HSET', KEYS[1], unpack(changes))
local state = intent[${fieldAt('state')}]
if state ~= 'sending' and lease and string.sub(lease, 1, 8) == 'sending:' then
  redis.call('HDEL', KEYS[1], 'lease', 'leaseUntil')
  intent[${fieldAt('leaseUntil')}] = false
end
if state == 'closed' or intent[${fieldAt('settledAt')}] then
  redis.call('ZREM', KEYS[#KEYS], ARGV[1])
else
  redis.call('ZADD', KEYS[#KEYS], ARGV[10], ARGV[1])
end
return intent`);

/**
 * KEYS: intent. ARGV: the recording call's id, now (ms), lease ms.
 * Extends the sending lease that call took, while the intent is still `sending`; answers 1 if it did.
 */
export const RENEW_SENDING_SCRIPT = redisScript(`
if redis.call('HGET', KEYS[1], 'state') ~= 'sending' then return 0 end
if redis.call('HGET', KEYS[1], 'lease') ~= 'sending:' .. ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'leaseUntil', tonumber(ARGV[2]) + tonumber(ARGV[3]))
return 1`);

/** KEYS: any key of the journal (it routes the call). Answers the server's clock, `TIME`. */
export const TIME_SCRIPT = redisScript(`return redis.call('TIME')`);
