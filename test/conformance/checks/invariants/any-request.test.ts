// invariants.listPets.any-request tries each spelling of a page size, each
// Accept-Encoding, each safe request field and each route spelling once, as
// its examples; a run longer than those goes on to draw combinations of
// them (a field with an odd page size, a route spelling with another
// coding). The fixture corpus is judged at 25 runs, where nothing is drawn,
// so what is drawn is stated here.
import t from 'tap';
import { runConformance } from '../../../../conformance/index.js';
import { PAGE_SIZE_FORMS } from '../../../../conformance/catalogues/page-sizes.js';
import { REQUEST_FIELDS } from '../../../../conformance/catalogues/request-fields.js';
import { ACCEPT_ENCODINGS } from '../../../../conformance/catalogues/codings.js';
import { routeSpellings } from '../../../../conformance/arbitraries/spellings.js';
import { openapi } from '../../../../spec/openapi.js';
import { integerRange } from '../../../../conformance/arbitraries/schema.js';
import { pageSizeParameter } from '../../../../conformance/checks/family-requests.js';
import { describeOperations, operationById } from '../../../../spec/operations.js';
import { startTestServer } from '../../../helpers/server.js';

const CHECK = 'invariants.listPets.any-request';

t.test('past its examples, any-request draws combinations of catalogue entries, each one a real entry', async (t) => {
  const { server, url, key } = await startTestServer(t);
  const basePath = new URL(url).pathname;
  const sent: { method: string; url: string; headers: Record<string, string | string[] | undefined> }[] = [];
  server.http.prependListener('request', (req) => sent.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers }));

  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 11, runs: 400, families: ['invariants'], checkIds: [CHECK] });
  const outcome = result.checks.find((c) => c.id === CHECK);
  t.equal(outcome?.status, 'passed', 'every drawn case is a request the check can make (an index past a catalogue would throw)');
  t.equal(outcome?.runs, 200, 'half of --runs, more than the examples');

  const size = pageSizeParameter(operationById('listPets'))!;
  const firstForm = PAGE_SIZE_FORMS[0]!.query(size.name, integerRange(size.schema)[1]);
  const fields = REQUEST_FIELDS.filter((f) => f.safe && !f.keyElsewhere).map((f) => ({ name: f.name, value: f.value({ apiKey: key, basePath }) }));
  const codings = ACCEPT_ENCODINGS.slice(1).map((e) => e.value);
  // The list's requests, not the creations that fill it.
  const lists = sent.filter(
    ({ url }) =>
      url.includes('?') &&
      url
        .slice(url.indexOf('?') + 1)
        .toLowerCase()
        .includes(size.name.toLowerCase()),
  );
  const otherForm = lists.filter(({ url }) => url.slice(url.indexOf('?') + 1) !== firstForm);
  const withField = ({ headers }: (typeof sent)[number]) => fields.some((f) => headers[f.name] === f.value);

  t.ok(otherForm.some(withField), 'a request field is drawn beside a page size other than the first');
  t.ok(
    otherForm.some(({ headers }) => codings.includes((headers['accept-encoding'] as string | undefined) ?? null)),
    'an Accept-Encoding other than the first is drawn beside a page size other than the first',
  );
  t.ok(
    otherForm.some(({ url }) => !url.startsWith(`${basePath}/pets?`)),
    'a route spelling is drawn beside a page size other than the first',
  );

  // With the key, to a staging: nothing that asks for a change, nothing that carries the key elsewhere.
  const unsafe = REQUEST_FIELDS.filter((f) => !f.safe || f.keyElsewhere).map((f) => ({ name: f.name, value: f.value({ apiKey: key, basePath }) }));
  t.notOk(
    sent.some(({ headers }) => unsafe.some((f) => headers[f.name] === f.value)),
    'no field that asks for a change or carries the key elsewhere is sent',
  );
  const rewrites = sent.flatMap(({ headers }) => ['x-original-url', 'x-rewrite-url'].map((name) => headers[name]).filter((v) => v !== undefined));
  const catalogued = new Set(
    REQUEST_FIELDS.filter((f) => f.name === 'x-original-url' || f.name === 'x-rewrite-url').map((f) => f.value({ apiKey: key, basePath })),
  );
  t.ok(
    rewrites.length > 0 && rewrites.every((v) => typeof v === 'string' && catalogued.has(v) && v.startsWith('/')) && rewrites.includes(`${basePath}/pets`),
    `a rewrite field names a path of this origin from the catalogue, the list among them: ${[...new Set(rewrites)].join(', ')}`,
  );
  t.ok(
    sent.every(({ url }) => url.startsWith(`${basePath}/`) && !url.includes('??')),
    'every request is below the base path, its query after one ? (the spelling that ends in ? included)',
  );
  t.ok(
    sent.some(({ url }) => url.startsWith(`${basePath}/pets?${size.name}=`)) &&
      sent.some(({ url }) => /\/pets\?$/.test(url) === false && url.includes('/pets?')),
    'the page size follows the ? of each spelling',
  );

  // What is off the spec (a field, a spelling) is left out of the coverage of listPets; a plain request is in it. The
  // spelling that ends in ? is sent as the very URL of a plain request, so the server cannot tell those apart: the
  // check's own coverage counts them.
  const listPath = `${basePath}/pets`;
  const plain = sent.filter(
    ({ method, url, headers }) => method === 'GET' && url.split('?')[0] === listPath && !fields.some((f) => headers[f.name] === f.value),
  );
  const list = result.coverage.operations.find((o) => o.operationId === 'listPets');
  const emptyQuery = routeSpellings('GET', '/pets', '/pets').find((s) => s.path.endsWith('?'))!.label;
  const spelledSo =
    list?.inputs.find((i) => i.dimension === 'route spelling, with the key')?.classes.find((c) => c.value === emptyQuery && c.count > 0)?.count ?? 0;
  t.ok(spelledSo > 0, `the spelling ${emptyQuery} is sent ${spelledSo} times`);
  const covered = list?.requests ?? 0;
  t.ok(
    covered <= plain.length && covered >= plain.length - spelledSo,
    `listPets covers ${covered} requests: those without a field or a spelling (${plain.length}, less at most the ${spelledSo} so spelled), not the others`,
  );
});

t.test('without a page size in the spec, any-request asks for the list as the path alone, and after the ? of the spelling that ends in one', async (t) => {
  const doc = structuredClone(openapi) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  doc.paths['/pets'].get.parameters = doc.paths['/pets'].get.parameters.filter(
    (p: { name: string }) => p.name !== pageSizeParameter(operationById('listPets'))!.name,
  );
  const operations = describeOperations(doc);
  const { server, url } = await startTestServer(t, { operations });
  const basePath = new URL(url).pathname;
  const urls: string[] = [];
  server.http.prependListener('request', (req) => urls.push(req.url ?? ''));
  const result = await runConformance({
    baseUrl: url,
    apiKey: server.apiKeys[0]!,
    seed: 11,
    runs: 25,
    families: ['invariants'],
    checkIds: [CHECK],
    operations,
  });
  t.equal(result.checks.find((c) => c.id === CHECK)?.status, 'passed');
  t.ok(urls.includes(`${basePath}/pets`), 'the list as the path alone');
  t.ok(urls.includes(`${basePath}/pets?`), 'the spelling that ends in ? as it is');
  t.notOk(
    urls.some((u) => /\?.*\?|\?$/.test(u) && u !== `${basePath}/pets?`),
    'no other ? is added',
  );
});
