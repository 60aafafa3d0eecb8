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
 * KEYS: the `applied` set, then the sets of `accepted`, `completed` and `failed`.
 * ARGV: the journal's key prefix (the intents' keys share its hash tag), the batch size.
 * Moves a batch of intents out of the `applied` set into the set of their outcome's state, renaming
 * the state in each hash; answers how many it took from the set.
 */
const RENAME_SCRIPT = redisScript(`
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
  const keys = [LEGACY_ACCEPTED_STATE, 'accepted', 'completed', 'failed'].map(setOf);
  let renamed = 0;
  for (;;) {
    const taken = Number(await commander.script(RENAME_SCRIPT, keys, [prefix, String(BATCH)]));
    renamed += taken;
    if (!(taken >= BATCH)) return renamed;
  }
}
