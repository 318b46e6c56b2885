// The registry's request fields and the values an attacker puts in them
// (conformance/catalogues/field-registry.ts): names a client may send,
// each once, none that frames the message; values that are field values.
import t from 'tap';
import { REGISTERED_FIELDS, VALUE_KINDS } from '../../../conformance/catalogues/field-registry.js';

t.test('field names are lower-case tokens, each once, none that frames the message or is the credential', async (t) => {
  t.equal(new Set(REGISTERED_FIELDS).size, REGISTERED_FIELDS.length, 'each once');
  for (const name of REGISTERED_FIELDS) t.match(name, /^[a-z][a-z0-9-]*$/, name);
  for (const framing of ['content-length', 'transfer-encoding', 'host', 'connection', 'upgrade', 'te', 'keep-alive', 'expect', 'authorization'])
    t.notOk(REGISTERED_FIELDS.includes(framing), `${framing} is left out`);
  t.ok(REGISTERED_FIELDS.length >= 40, `${REGISTERED_FIELDS.length} fields`);
});

t.test('every kind of value gives field values (no CR, LF or NUL), the paths under the base path given', async (t) => {
  for (const { kind, values } of VALUE_KINDS) {
    const all = values('/api/v1');
    t.ok(all.length > 0, `${kind}: some values`);
    for (const value of all) t.notMatch(value, /[\r\n\0]/, `${kind}: ${JSON.stringify(value)}`);
  }
  t.ok(
    VALUE_KINDS.find((k) => k.kind === "the interface's own paths")!
      .values('/api/v1')
      .every((v) => v.startsWith('/api/v1')),
  );
});
