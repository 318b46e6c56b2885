// What invariants' no-credential check takes for pet data in an answer to a
// request without a valid key (servedWithoutKey), and which routes it tries
// outside the base path (targetsOf). A fixture shows a server's leak; these
// say what the check makes of an answer that no fixture in the corpus gives.
import t from 'tap';
import fc from 'fast-check';
import {
  attemptArbitrary,
  attemptExamples,
  requestOf,
  servedWithoutKey,
  targetsOf,
  type Attempt,
  type Target,
} from '../../../conformance/checks/no-credential.js';
import { METHODS } from '../../../conformance/catalogues/methods.js';
import { refusedAuthorizationExamples } from '../../../conformance/arbitraries/requests.js';
import { QUERY_FORMS, REQUEST_FIELDS } from '../../../conformance/catalogues/request-fields.js';
import { Knowledge } from '../../../conformance/knowledge.js';
import type { WireResponse } from '../../../conformance/client.js';
import type { CheckContext } from '../../../conformance/vocabulary.js';
import { describeOperations } from '../../../spec/operations.js';
import { runCheck } from '../../helpers/check-run.js';
import { startFront } from '../../helpers/front.js';
import { SAFE_BY_STANDARD } from '../../helpers/safe-methods.js';
import { startTestServer } from '../../helpers/server.js';
import { openapi } from '../../../spec/openapi.js';
import { parseJson, type JsonObject, type JsonValue } from '../../../spec/json/index.js';

const operations = describeOperations(openapi);
const ctxAt = (baseUrl: string) => ({ options: { baseUrl, apiKey: 'secret-key-123' }, operations }) as unknown as CheckContext;

const target = (path: string, interfacePath: boolean): Target => ({
  label: path,
  path,
  interfacePath,
  ...(interfacePath ? {} : { fromOrigin: true as const }),
});
const attempt = (path: string, interfacePath = false, method = 'GET'): Attempt => ({
  method,
  target: target(path, interfacePath),
  authorization: { label: 'none', header: null },
  fields: [],
  query: -1,
  body: 'none',
});
const answer = (status: number, text: string): WireResponse => {
  const parsed = parseJson(text);
  return { status, headers: { 'content-type': 'application/json' }, text, json: parsed.ok ? parsed.value : undefined, durationMs: 1 } as WireResponse;
};

const knowledge = new Knowledge();
/** The object a JSON text holds (the texts here are all valid). */
const object = (text: string): JsonObject => {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value as JsonObject;
};
const witness = knowledge.record(object('{"id":4711,"name":"conform-witness","categoryId":3}'))!;

t.test('a 2xx without a key is pet data when it holds a pet-shaped object, a list of them, or a pet this run created anywhere', async (t) => {
  const served = (path: string, status: number, text: string, interfacePath = false) =>
    servedWithoutKey(attempt(path, interfacePath), answer(status, text), [], knowledge);
  t.match(served('/admin', 200, '[{"id":9,"name":"not ours"}]'), /list of pets/, 'a list of pets this run did not create, outside the interface');
  t.match(served('/admin', 200, '[{"id":9,"categoryId":1}]'), /list of pets/, 'shown by id and categoryId');
  t.equal(served('/admin', 200, '[{"status":"ok"},{"uptime":3}]'), undefined, 'a public list of other objects is no pet data');
  t.equal(served('/admin', 200, '[]'), undefined, 'an empty list outside the interface is none');
  t.match(served('/v0/pets', 200, '[]', true), /list \(empty\)/, 'an empty list as the interface is the list without a key');
  t.equal(served('/admin', 404, '[{"id":9,"name":"not ours"}]'), undefined, 'a refusal is judged by the witnesses named in it, not its shape');
  t.match(
    served('/debug', 200, '{"dump":{"pets":[{"id":4711,"name":"conform-witness"}]}}'),
    /pet 4711 \(created by this run\)/,
    'a pet of this run inside a dump',
  );
  t.equal(served('/debug', 200, '{"dump":{"pets":[{"id":4711,"name":"another name"}]}}'), undefined, 'its id with another name is not that pet');
  t.equal(served('/debug', 200, '{"status":null,"items":[null,{"id":"x"}]}'), undefined, 'null inside a public answer is read, not thrown on');
});

t.test('the walk finds a pet of this run 64 levels down, and stops past that', async (t) => {
  // Built as the client's reader gives it (ids as bigint), past the depth parseJson itself allows.
  const nested = (levels: number): JsonValue => {
    let value: JsonValue = { id: 4711n, name: 'conform-witness' };
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };
  const served = (levels: number) => servedWithoutKey(attempt('/debug'), { ...answer(200, '{}'), json: nested(levels) } as WireResponse, [], knowledge);
  t.match(served(64), /pet 4711/, '64 levels down');
  t.equal(served(65), undefined, 'deeper is not walked');
  t.equal(witness.id, '4711');
});

t.test('the routes tried outside the base path are found by taking the version off its end', async (t) => {
  const outside = (baseUrl: string) =>
    targetsOf(ctxAt(baseUrl))
      .filter((x) => x.fromOrigin)
      .map((x) => x.path);
  t.ok(outside('http://h/v1').includes('/pets'), '/v1: the collection at the root');
  t.ok(outside('http://h/api/v10').includes('/api/pets'), '/api/v10: every digit of the version is taken off');
  t.ok(outside('http://h/v1/tenant').includes('/v1/tenant/pets'), 'a base path that does not end in a version keeps it whole');
  const interfaceLike = targetsOf(ctxAt('http://h/v1'))
    .filter((x) => x.fromOrigin && x.interfacePath)
    .map((x) => x.path);
  t.same(
    interfaceLike.filter((p) => !p.includes('{pet}')),
    ['/pets', '/v0/pets', '/V1/pets', '/v1.0/pets', '/api/pets'],
    'the collection outside the interface, under another version or mount, is the interface',
  );
  t.notOk(
    targetsOf(ctxAt('http://h/v1')).some((x) => x.fromOrigin && x.interfacePath && /\/(admin|debug|reset)$/.test(x.path)),
    'an administrative route is not',
  );
});

t.test('the walk is bounded in objects too', async (t) => {
  const many = `[${Array.from({ length: 10_050 }, () => '{"x":1}').join(',')},{"id":4711,"name":"conform-witness"}]`;
  t.equal(servedWithoutKey(attempt('/debug'), answer(200, many), [], knowledge), undefined, 'a pet past ten thousand objects is not looked for');
});

t.test('a request without the key: Proxy-Authorization left out only through a proxy, Content-Type only with content', async (t) => {
  const proxyField = REQUEST_FIELDS.findIndex((f) => f.name === 'proxy-authorization');
  const apiKeyField = REQUEST_FIELDS.findIndex((f) => f.name === 'x-api-key');
  const c = (proxy?: string) =>
    ({ options: { baseUrl: 'http://h/v1', apiKey: 'secret-key-123', namePrefix: 'conform-' }, client: { proxy }, operations }) as unknown as CheckContext;
  const sent = (proxy: string | undefined, body: Attempt['body']) =>
    requestOf(c(proxy), { ...attempt('/pets/{pet}', true, 'POST'), fields: [proxyField, apiKeyField], body }, [witness]);
  t.equal(sent(undefined, 'none').headers['proxy-authorization'], 'Bearer secret-key-123', 'sent straight to the target: Proxy-Authorization carries the key');
  t.equal(sent('http://127.0.0.1:3128', 'none').headers['proxy-authorization'], undefined, 'through a proxy: it is the proxy’s own field, left out');
  t.equal(sent('http://127.0.0.1:3128', 'none').headers['x-api-key'], 'secret-key-123', 'the other fields still go');
  t.equal(sent(undefined, 'none').headers['content-type'], undefined, 'no content, no Content-Type');
  t.equal(sent(undefined, 'none').body, undefined);
  t.equal(sent(undefined, 'new pet').headers['content-type'], 'application/json');
  t.equal(sent(undefined, 'a form').headers['content-type'], 'application/x-www-form-urlencoded');
  t.equal(sent(undefined, 'none').path, '/pets/4711', 'the witness id in the path');
});

// What the check sends: its examples (tried before the random batches) and what the batches draw.
const sender = {
  options: { baseUrl: 'http://h/v1', apiKey: 'secret-key-123', namePrefix: 'conform-', seed: 1 },
  client: {},
  operations,
} as unknown as CheckContext;
const examples = attemptExamples(sender).flat();
const drawn = fc.sample(attemptArbitrary(sender), { numRuns: 2000, seed: 7 });
const safe = new Set(METHODS.filter((m) => m.safe).map((m) => m.method));
/** Whether the request as sent carries content: every body the check sends asks for a change (a new pet, a replaced or patched name, a form). */
const asksForChange = (a: Attempt) => requestOf(sender, a, [witness]).body !== undefined;

t.test('a method that asks for no change (the safe ones: RFC 9110 §9.2.1, WebDAV, QUERY) carries no body asking for one', async (t) => {
  for (const [method, where] of Object.entries(SAFE_BY_STANDARD)) {
    const sent = [...examples, ...drawn].filter((a) => a.method === method);
    t.ok(
      examples.some((a) => a.method === method),
      `${method} is tried`,
    );
    t.same(
      sent.filter(asksForChange).map((a) => `${a.target.path} with ${a.body}`),
      [],
      `${method} is safe (${where}): a request with it is no attempt to change a pet`,
    );
  }
  const wrong = [...examples, ...drawn].filter((a) => safe.has(a.method) && asksForChange(a));
  t.same(
    wrong.map((a) => `${a.method} with ${a.body}`),
    [],
    'nor does any other method the registry marks safe',
  );
});

t.test('GET, HEAD and TRACE go without content (RFC 9110 §9.3.1, §9.3.2; §9.3.8: a client MUST NOT send content in a TRACE request)', async (t) => {
  for (const a of [...examples, ...drawn].filter((x) => ['GET', 'HEAD', 'TRACE'].includes(x.method))) {
    const request = requestOf(sender, a, [witness]);
    if (request.body !== undefined || request.headers?.['content-type'] !== undefined) t.fail(`${a.method} ${request.path} with ${a.body}: content sent`);
  }
  t.ok(
    examples.some((a) => a.method === 'TRACE'),
    'TRACE is tried',
  );
});

t.test('the examples send DELETE without content (RFC 9110 §9.3.5: a client SHOULD NOT), so a front that refuses content on it hides no route', async (t) => {
  const deletes = examples.filter((a) => a.method === 'DELETE');
  t.ok(deletes.length > 0);
  t.same(
    deletes.filter((a) => a.body !== 'none').map((a) => `${a.target.path} with ${a.body}`),
    [],
  );
});

t.test('every path of the interface, and each spelling of it, gets a request that asks for a change', async (t) => {
  // An unsafe method asks for one: DELETE by itself, PUT, PATCH and POST with content that changes a pet (without
  // content they ask to change nothing, and a route that writes without a key would go unseen).
  const asks = (a: Attempt) => !(a.method in SAFE_BY_STANDARD) && (a.method === 'DELETE' || asksForChange(a));
  for (const target of targetsOf(sender).filter((x) => !x.fromOrigin))
    t.ok(
      examples.some((a) => a.target.path === target.path && !a.target.fromOrigin && asks(a)),
      target.label,
    );
});

t.test(
  'no class is left to chance: each field, query form and refused credential on a pet, and each body that asks for a change with each method that sends one',
  async (t) => {
    const onPet = (a: Attempt) => a.target.path.includes('{pet}') && !a.target.fromOrigin;
    for (const [i, field] of REQUEST_FIELDS.entries()) {
      t.ok(
        examples.some((a) => onPet(a) && a.fields.includes(i)),
        `${field.name} (${field.actedOnBy})`,
      );
      // An override is honoured on a POST only (express method-override, Rails' and Laravel's _method).
      if (!field.safe)
        t.ok(
          examples.some((a) => onPet(a) && a.method === 'POST' && a.fields.includes(i)),
          `${field.name} on a POST`,
        );
    }
    for (const [i, form] of QUERY_FORMS.entries()) {
      t.ok(
        examples.some((a) => onPet(a) && a.query === i),
        `the query form of ${form.actedOnBy}`,
      );
      if (!form.keyElsewhere)
        t.ok(
          examples.some((a) => onPet(a) && a.method === 'POST' && a.query === i),
          `the query form of ${form.actedOnBy} on a POST`,
        );
    }
    for (const authorization of refusedAuthorizationExamples('secret-key-123'))
      t.ok(
        examples.some((a) => onPet(a) && a.authorization.header === authorization.header),
        authorization.label,
      );
    const collection = operations.find((op) => op.operationId === 'createPet')!.path;
    const bodies: Attempt['body'][] = ['new pet', 'new pet with a witness id', 'a changed name', 'a JSON Patch', 'a form'];
    for (const method of ['PUT', 'PATCH', 'POST'])
      for (const body of bodies) {
        t.ok(
          examples.some((a) => onPet(a) && a.method === method && a.body === body),
          `${method} on a pet with ${body}`,
        );
        t.ok(
          examples.some((a) => a.target.path === collection && !a.target.fromOrigin && a.method === method && a.body === body),
          `${method} on the collection with ${body}`,
        );
      }
  },
);

t.test('the key goes outside Authorization only where an example asks whether the target takes it there', async (t) => {
  const elsewhere = (a: Attempt) => a.fields.some((i) => REQUEST_FIELDS[i]!.keyElsewhere) || (a.query >= 0 && QUERY_FORMS[a.query]!.keyElsewhere !== undefined);
  for (const a of examples) {
    const request = requestOf(sender, a, [witness]);
    const carried =
      request.path.includes('secret-key-123') ||
      Object.entries(request.headers ?? {}).some(([name, value]) => name !== 'authorization' && value.includes('secret-key-123'));
    if (carried) t.ok(elsewhere(a), `${a.method} ${request.path}: the key, asking whether it is taken there`);
  }
  t.ok(
    examples.some((a) => !elsewhere(a) && a.query === -1 && a.fields.length === 0),
    'the plain requests carry no field and no query',
  );
});

t.test('a witness soft-deleted without a key, then answered 410 with its fields whole (a tombstone), is gone', async (t) => {
  const { url, key } = await startTestServer(t);
  const deleted = new Set<string>();
  const front = await startFront(t, url, async (req, forward) => {
    const id = req.params && Object.values(req.params)[0];
    if (id !== undefined && req.method === 'DELETE' && req.headers.authorization !== `Bearer ${key}`) {
      deleted.add(id);
      return { status: 204, headers: {}, body: Buffer.alloc(0) };
    }
    const answer = await forward();
    return id !== undefined && req.method === 'GET' && deleted.has(id) && answer.status === 200 ? { ...answer, status: 410 } : answer;
  });
  const { status, message } = await runCheck(front, key, 'invariants.no-credential', { runs: 1 });
  t.equal(status, 'failed');
  t.match(message, /witness pet \d+, read with the key after DELETE .* is answered 410, not 200: it is gone/);
});
