// invariants.listPets.any-request tries each spelling of a page size, each
// Accept-Encoding, each safe request field and each route spelling once, as
// its examples; a run longer than those goes on to draw combinations of
// them (a field with an odd page size, a route spelling with another
// coding). The fixture corpus is judged at 25 runs, where nothing is drawn,
// so what is drawn is stated here.
import t from 'tap';
import { runConformance } from '../../conformance/index.js';
import { PAGE_SIZE_FORMS } from '../../conformance/catalogues/page-sizes.js';
import { REQUEST_FIELDS } from '../../conformance/catalogues/request-fields.js';
import { ACCEPT_ENCODINGS } from '../../conformance/catalogues/codings.js';
import { createServer } from '../../src/server/index.js';

const CHECK = 'invariants.listPets.any-request';

t.test('past its examples, any-request draws combinations of catalogue entries, each one a real entry', async (t) => {
  // The server itself, not test/helpers: the mutation run copies this file alone beside conformance/ and src/.
  const server = createServer({ onError: (error) => t.fail(String(error)) });
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const key = server.apiKeys[0]!;
  const basePath = new URL(url).pathname;
  const sent: { url: string; headers: Record<string, string | string[] | undefined> }[] = [];
  server.http.prependListener('request', (req) => sent.push({ url: req.url ?? '', headers: req.headers }));

  const result = await runConformance({ baseUrl: url, apiKey: key, seed: 11, runs: 400, families: ['invariants'], checkIds: [CHECK] });
  const outcome = result.checks.find((c) => c.id === CHECK);
  t.equal(outcome?.status, 'passed', 'every drawn case is a request the check can make (an index past a catalogue would throw)');
  t.equal(outcome?.runs, 200, 'half of --runs, more than the examples');

  const firstForm = PAGE_SIZE_FORMS[0]!.query('limit', 100n);
  const fields = REQUEST_FIELDS.filter((f) => f.safe && !f.keyElsewhere).map((f) => ({ name: f.name, value: f.value({ apiKey: key, basePath }) }));
  const codings = ACCEPT_ENCODINGS.slice(1).map((e) => e.value);
  // The list's requests, not the creations that fill it.
  const lists = sent.filter(({ url }) => url.includes('?') && /limit/i.test(url.slice(url.indexOf('?') + 1)));
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
});
