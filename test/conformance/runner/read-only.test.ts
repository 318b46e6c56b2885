// --read-only skips the checks that write (check.writes) and runs every
// other: a check marked as writing that only reads would be skipped where a
// staging is judged read-only, and one that writes unmarked would send writes
// there. Each family is run against the reference server (holding pets, so
// nothing needs creating to be read), the methods of each check's requests
// taken at the server; then again with --read-only.
import type { IncomingHttpHeaders } from 'node:http';
import t from 'tap';
import { runConformance } from '../../../conformance/index.js';
import { FAMILIES } from '../../../conformance/vocabulary.js';
import { SAFE_BY_STANDARD } from '../../helpers/safe-methods.js';
import { createPets, startTestServer } from '../../helpers/server.js';

/** The methods that ask for no change, by their standards. */
const SAFE = new Set(Object.keys(SAFE_BY_STANDARD));

/** Fields that ask for another method than the request line's (express method-override, Google APIs, OData, gateways). */
const OVERRIDES = ['x-http-method-override', 'x-http-method', 'x-method-override'];

/** The method a request asks for: an override's, where it carries one. */
function askedFor(headers: IncomingHttpHeaders, method: string): string {
  const override = OVERRIDES.map((name) => headers[name]).find((v) => typeof v === 'string');
  return override === undefined ? method : `${method} as ${override.toUpperCase()}`;
}

const safe = (asked: string) => asked.split(' as ').every((m) => SAFE.has(m));

for (const family of FAMILIES) {
  t.test(`${family}: with --read-only nothing unsafe is sent, and a check that sends only safe methods still runs`, async (t) => {
    const { server, url, key, api } = await startTestServer(t);
    const oracleUrl = family === 'oracle' ? (await startTestServer(t)).url : '';
    await createPets(api, [
      { name: 'Rex', categoryId: 1 },
      { name: 'Tom', categoryId: 2 },
    ]);
    // One check at a time, so that each request the server sees belongs to the check running.
    let methods = new Map<string, Set<string>>();
    let current: Set<string> | undefined;
    server.http.prependListener('request', (req) => current?.add(askedFor(req.headers, req.method ?? '')));
    const run = async (readOnly: boolean) => {
      methods = new Map();
      const result = await runConformance({
        baseUrl: url,
        apiKey: key,
        // The oracle family's one check composes requests against an oracle: here the reference server again.
        ...(family === 'oracle' ? { oracle: { baseUrl: oracleUrl, apiKey: key, label: 'the reference server', inProcess: true } } : {}),
        seed: 1,
        runs: 5,
        concurrency: 1,
        families: [family],
        readOnly,
        onProgress: (event) => {
          if (event.type === 'check-start') methods.set(event.check, (current = new Set()));
          else current = undefined;
        },
      });
      return { result, methods };
    };
    const written = await run(false);
    const readOnly = await run(true);
    t.ok(readOnly.result.checks.length > 0);
    for (const outcome of readOnly.result.checks) {
      const sent = [...(written.methods.get(outcome.id) ?? [])];
      const sentReadOnly = [...(readOnly.methods.get(outcome.id) ?? [])];
      const skipped = outcome.status === 'skipped' && /--read-only/.test(outcome.note ?? '');
      const shown = `${outcome.id}: sent ${sent.join(', ') || 'nothing'}, with --read-only ${skipped ? 'skipped' : sentReadOnly.join(', ') || 'nothing'}`;
      t.ok(sentReadOnly.every(safe), `${shown}: nothing unsafe with --read-only`);
      if (sent.every(safe)) t.notOk(skipped, `${shown}: only safe methods, so it runs with --read-only`);
    }
  });
}
