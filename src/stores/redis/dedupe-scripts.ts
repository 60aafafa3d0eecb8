/**
 * Lua scripts of the Redis dedupe store. A key holds `lease:<name>` while its callback runs, under
 * the lease's expiry, then `done` for the time to live. Each script touches one key, so each runs
 * on one node of a cluster. A key written before leases existed holds `1`: it reads as done.
 */
import { redisScript } from './commander.js';

/** KEYS: the key. ARGV: lease name, lease ms. Answers `{'claimed'}`, `{'in_progress', ms}` or `{'duplicate'}`. */
export const CLAIM_SCRIPT = redisScript(`
local value = redis.call('GET', KEYS[1])
if not value then
  redis.call('SET', KEYS[1], 'lease:' .. ARGV[1], 'PX', ARGV[2])
  return {'claimed'}
end
if string.sub(value, 1, 6) == 'lease:' then return {'in_progress', redis.call('PTTL', KEYS[1])} end
return {'duplicate'}`);

/** KEYS: the key. ARGV: lease name, time to live ms. Marks the key done, if the lease still holds it. */
export const COMPLETE_SCRIPT = redisScript(`
if redis.call('GET', KEYS[1]) == 'lease:' .. ARGV[1] then
  redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2])
  return 1
end
return 0`);

/** KEYS: the key. ARGV: lease name. Deletes the key, if the lease still holds it. */
export const RELEASE_SCRIPT = redisScript(`
if redis.call('GET', KEYS[1]) == 'lease:' .. ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);
