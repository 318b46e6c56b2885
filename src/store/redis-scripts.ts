/**
 * The Lua scripts of the shared store (redis-store.ts). Each runs atomically
 * in Redis, so a create is one round trip that never leaves a pet listed but
 * not retrievable (or the other way round), and a page is one round trip too.
 *
 * Keys, under the store's prefix: `pets` (hash: id digits → the pet's JSON),
 * `order` (list of ids in creation order), `status:<s>` (list of ids of each
 * status, in creation order), `seq` (how many ids a sequential mode has
 * handed out), `meta` (hash: `ids` mode, `seed` size).
 *
 * Redis runs Lua 5.1, whose numbers are doubles: exact to 2^53 only. Ids of
 * the `large` mode lie beyond, so an id is computed as text from its two
 * halves (high × 10^9 + low), each far below 2^53.
 */

/**
 * Creates every pet given, or none. KEYS: pets, order, seq, then the status
 * lists. ARGV: capacity, base high, base low, step, then per pet four values:
 * the JSON before the id, the JSON after it, the index in KEYS of its status
 * list ('0': none), and its id ('' for the next sequential one). Answers
 * `{'ok', id…}`, `{'full'}` or `{'taken', id}`.
 */
export const CREATE_SCRIPT = `
local count = redis.call('LLEN', KEYS[2])
local pets = (#ARGV - 4) / 4
if count + pets > tonumber(ARGV[1]) then return {'full'} end
for p = 0, pets - 1 do
  local id = ARGV[8 + p * 4]
  if id ~= '' and redis.call('HEXISTS', KEYS[1], id) == 1 then return {'taken', id} end
end
local high0, low0, step = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local answer = {'ok'}
for p = 0, pets - 1 do
  local at = 5 + p * 4
  local id = ARGV[at + 3]
  if id == '' then
    local n = redis.call('INCR', KEYS[3])
    local low = low0 + (n - 1) * step + 1
    local high = high0 + math.floor(low / 1000000000)
    low = low % 1000000000
    if high > 0 then id = string.format('%d%09d', high, low) else id = string.format('%d', low) end
  end
  redis.call('HSET', KEYS[1], id, ARGV[at] .. id .. ARGV[at + 1])
  redis.call('RPUSH', KEYS[2], id)
  local list = tonumber(ARGV[at + 2])
  if list > 0 then redis.call('RPUSH', KEYS[list], id) end
  answer[#answer + 1] = id
end
return answer
`;

/** The JSON of the pets at positions ARGV[1]..ARGV[2] (inclusive) of the list KEYS[1]. KEYS[2]: pets. */
export const RANGE_SCRIPT = `
local ids = redis.call('LRANGE', KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
if #ids == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(ids))
`;

/**
 * Forgets every pet after the seed's (meta's `seed` field), in every list,
 * and sets the sequence back, as the in-memory store's reset does. KEYS:
 * pets, order, seq, meta, then the status lists. Answers how many were
 * forgotten.
 */
export const RESET_SCRIPT = `
local seed = tonumber(redis.call('HGET', KEYS[4], 'seed') or '0')
local total = redis.call('LLEN', KEYS[2])
if total > seed then
  local gone = redis.call('LRANGE', KEYS[2], seed, -1)
  for i = 1, #gone, 1000 do redis.call('HDEL', KEYS[1], unpack(gone, i, math.min(i + 999, #gone))) end
  if seed == 0 then redis.call('DEL', KEYS[2]) else redis.call('LTRIM', KEYS[2], 0, seed - 1) end
  for k = 5, #KEYS do
    while true do
      local last = redis.call('LINDEX', KEYS[k], -1)
      if not last or redis.call('HEXISTS', KEYS[1], last) == 1 then break end
      redis.call('RPOP', KEYS[k])
    end
  end
end
redis.call('SET', KEYS[3], seed)
return total - seed
`;
