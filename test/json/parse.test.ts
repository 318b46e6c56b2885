import t from 'tap';
import { parseJson } from '../../src/json/index.js';

t.test('integers beyond 2^53 keep every digit', async (t) => {
  const r = parseJson('{"a":9007199254740993}');
  t.ok(r.ok);
  if (r.ok) t.equal((r.value as Record<string, unknown>)['a'], 9007199254740993n);
});
