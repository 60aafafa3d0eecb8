/**
 * Journals written before the states named their outcome held `applied` for accepted, completed and
 * failed payments alike. The Redis journal renames them on first use, in batches, each batch one
 * atomic script; intents an earlier version still writes are read (and moved by updates) as the
 * state of their outcome meanwhile.
 */
import { acceptedState } from '../../journal/merge.js';
import type { PaymentIntentState } from '../../journal/types.js';
import { type RedisCommander, redisScript } from './commander.js';

/** The state earlier versions wrote for every payment the service accepted. */
export const LEGACY_ACCEPTED_STATE = 'applied';

/** How many intents one script renames. */
const BATCH = 500;

/**
 * KEYS: the `applied` set, then the sets of `accepted`, `completed` and `failed`, the due set, and
 * the set by recording time.
 * ARGV: the journal's key prefix (the intents' keys share its hash tag), the batch size.
 * Moves a batch of intents out of the `applied` set into the set of their outcome's state, renaming
 * the state in each hash. Intents older than the due set and the set by recording time get the
 * times in ms those need (read from their ISO 8601 `createdAt` and `updatedAt`) and join both, so
 * the sweeper judges them and `list(query)` finds them. Answers how many it took from the set.
 */
const RENAME_SCRIPT = redisScript(`
local function isoMs(s)
  local y, m, d, hh, mm, ss = string.match(s or '', '^(%d+)-(%d+)-(%d+)T(%d+):(%d+):(%d+)')
  if not y then return 0 end
  y, m = tonumber(y), tonumber(m)
  if m <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * ((m + 9) % 12) + 2) / 5) + tonumber(d) - 1
  local days = era * 146097 + yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy - 719468
  return ((days * 24 + tonumber(hh)) * 60 + tonumber(mm)) * 60000 + tonumber(ss) * 1000
end
local refs = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
for i = 1, #refs, 2 do
  local ref, seq = refs[i], refs[i + 1]
  local key = ARGV[1] .. 'intent:' .. ref
  redis.call('ZREM', KEYS[1], ref)
  if redis.call('HGET', key, 'state') == 'applied' then
    local status = redis.call('HGET', key, 'transactionStatus')
    local target, name = KEYS[2], 'accepted'
    if status == 'completed' then target, name = KEYS[3], 'completed'
    elseif status == 'failed' then target, name = KEYS[4], 'failed' end
    redis.call('HSET', key, 'state', name)
    redis.call('ZADD', target, seq, ref)
    local times = redis.call('HMGET', key, 'createdAt', 'updatedAt')
    redis.call('HSETNX', key, 'createdMs', isoMs(times[1]))
    redis.call('HSETNX', key, 'updatedMs', isoMs(times[2]))
    local ms = redis.call('HMGET', key, 'createdMs', 'updatedMs')
    redis.call('ZADD', KEYS[6], 'NX', ms[1], ref)
    if redis.call('HEXISTS', key, 'settledAt') == 0 then redis.call('ZADD', KEYS[5], 'NX', ms[2], ref) end
  end
end
return #refs / 2`);

/** The state of a stored intent, read as the state of its outcome when an earlier version wrote `applied`. */
export function readState(
  stored: string | undefined,
  transactionStatus: string | undefined,
): PaymentIntentState {
  return stored === LEGACY_ACCEPTED_STATE ? acceptedState(transactionStatus) : (stored as PaymentIntentState);
}

/** Renames every `applied` intent under `prefix`; answers how many it renamed. */
export async function renameLegacyStates(commander: RedisCommander, prefix: string): Promise<number> {
  const setOf = (state: string) => `${prefix}state:${state}`;
  const states = [LEGACY_ACCEPTED_STATE, 'accepted', 'completed', 'failed'].map(setOf);
  const keys = [...states, `${prefix}due`, `${prefix}created`];
  let renamed = 0;
  for (;;) {
    const taken = Number(await commander.script(RENAME_SCRIPT, keys, [prefix, String(BATCH)]));
    renamed += taken;
    if (!(taken >= BATCH)) return renamed;
  }
}
