// Issue 26 §4: a client that sends only what the interface promises produces
// no finding. Two such clients: the conformance suite's families whose
// traffic is valid (state, concurrency: create, get and list as the spec
// describes them), and openapi-fetch, the generated-client library, with
// its paths typed from spec/openapi.ts. Both call the deprecated getPet,
// which the interface still promises until its sunset: that warning is the
// one finding allowed, and is shown to be there.
import t from 'tap';
import createClient from 'openapi-fetch';
import { runConformance } from '../../../../../conformance/index.js';
import { parseJson, stringifyJson, type JsonValue } from '../../../../../spec/json/index.js';
import type { ErrorBody, NewPet, Pet, PetStatus } from '../../../../../spec/types.js';
import { assertNoFindings } from '../../../../../src/server/findings/index.js';
import { startTestServer } from '../../../../helpers/server.js';

/** The interface's paths in openapi-typescript's shape, from the spec's own types (FromSchema over spec/openapi.ts). */
interface Paths {
  '/pets': {
    get: {
      parameters: { query?: { limit?: number; status?: PetStatus } };
      responses: { 200: { content: { 'application/json': Pet[] } }; 401: { content: { 'application/json': ErrorBody } } };
    };
    post: {
      requestBody: { content: { 'application/json': NewPet } };
      responses: { 201: { content: { 'application/json': Pet } }; 400: { content: { 'application/json': ErrorBody } } };
    };
  };
  '/pets/{petId}': {
    get: {
      parameters: { path: { petId: string } };
      responses: { 200: { content: { 'application/json': Pet } }; 404: { content: { 'application/json': ErrorBody } } };
    };
  };
}

const ALLOWED = ['deprecated_operation'];

t.test("the conformance suite's valid traffic (state, concurrency) produces no finding but getPet's deprecation", async (t) => {
  const s = await startTestServer(t, { ids: 'large' });
  const result = await runConformance({ baseUrl: s.url, apiKey: s.key, families: ['state', 'concurrency'], runs: 30, seed: 26 });
  t.ok(result.ok, 'the families pass');
  t.ok(result.requests > 50, `${result.requests} requests`);
  t.doesNotThrow(() => assertNoFindings(s.server.findings.list(), { allow: ALLOWED }));
  t.ok(
    s.server.findings.list().some((f) => f.code === 'deprecated_operation'),
    'getPet was called, and said to be deprecated',
  );
});

t.test('an openapi-fetch client sending only what the interface promises produces no finding but getPet’s deprecation', async (t) => {
  const s = await startTestServer(t, { ids: 'large' });
  // int64 ids as the digits they are: openapi-fetch's default JSON.parse would round them (the rounded_id finding).
  const exact = async (response: Response) => {
    const parsed = parseJson(await response.text());
    return parsed.ok ? parsed.value : undefined;
  };
  const client = createClient<Paths>({
    baseUrl: s.url,
    headers: { Authorization: `Bearer ${s.key}` },
    // int64 written as its digits (Node 20 has no JSON.rawJSON).
    bodySerializer: (body) => stringifyJson(body as unknown as JsonValue),
  });
  const created = await client.POST('/pets', {
    body: { name: 'Rex', categoryId: 9007199254740993n, status: 'available' } as unknown as NewPet,
    parseAs: 'stream',
  });
  t.equal(created.response.status, 201);
  const pet = (await exact(created.response)) as { id: bigint };
  await client.POST('/pets', { body: { name: 'Tom', categoryId: 2n } as unknown as NewPet, parseAs: 'stream' }).then((r) => r.response.body?.cancel());
  const page = await client.GET('/pets', { params: { query: { limit: 5, status: 'available' } } });
  t.equal(page.response.status, 200);
  const all = await client.GET('/pets', {});
  t.equal(all.response.status, 200);
  const one = await client.GET('/pets/{petId}', { params: { path: { petId: String(pet.id) } }, parseAs: 'stream' });
  t.equal(one.response.status, 200, 'the exact id finds the pet');
  await one.response.body?.cancel();
  t.doesNotThrow(() => assertNoFindings(s.server.findings.list(), { allow: ALLOWED }));
  t.strictSame(
    s.server.findings.list().map((f) => f.code),
    ['deprecated_operation'],
  );
});
