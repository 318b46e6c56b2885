// spec/json/is-object.ts: what both halves ask of a parsed body before they
// read its members (a NewPet, a Pet, an Error): a JSON object, and nothing
// else that typeof calls an object.
import t from 'tap';
import { parseJson } from '../../../spec/json/index.js';
import { isObject } from '../../../spec/json/is-object.js';

t.test('a JSON object is an object, whatever its members', async (t) => {
  for (const text of ['{}', '{"name":"Rex","categoryId":9007199254740993}', '{"__proto__":1}']) {
    const parsed = parseJson(text);
    t.ok(parsed.ok && isObject(parsed.value), text);
  }
});

t.test('an array, null and every scalar are not', async (t) => {
  for (const value of [[], [{}], null, undefined, 'x', '', 0, 1n, true, false]) t.notOk(isObject(value), JSON.stringify(String(value)));
  const parsed = parseJson('[{"name":"Rex"}]');
  t.ok(parsed.ok && !isObject(parsed.value), 'a list of pets is not a pet');
});
