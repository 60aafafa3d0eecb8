import { redisScript } from './commander.js';

/**
 * KEYS: the value's key, the index of keys.
 * ARGV: '1' when a value is expected, the expected value, '1' when a value is written, the value,
 * its time to live in ms ('' for none), the store's own key (the index member).
 * Answers 1 when it wrote, 0 when the stored value was not the expected one.
 */
export const TOKEN_CAS_SCRIPT = redisScript(`
local current = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  if current ~= ARGV[2] then return 0 end
elseif current then
  return 0
end
if ARGV[3] == '1' then
  if ARGV[5] ~= '' then
    redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[5])
  else
    redis.call('SET', KEYS[1], ARGV[4])
  end
  redis.call('ZADD', KEYS[2], 0, ARGV[6])
else
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[6])
end
return 1`);

/**
 * KEYS: the index of keys, then the value key of each member in ARGV.
 * ARGV: index members (the store's own keys), one per value key.
 * Removes from the index each member whose value is gone (expired or deleted), checked in the
 * script so a value written again meanwhile keeps its entry. Answers how many it removed.
 */
export const TOKEN_UNINDEX_SCRIPT = redisScript(`
local removed = 0
for i = 1, #ARGV do
  if redis.call('EXISTS', KEYS[i + 1]) == 0 then
    removed = removed + redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return removed`);
