// The raw messages of http.createPet.message carry the NewPet exactly as
// generated: a chunked body is split between characters, so a name whose
// astral character straddles the middle reaches the server whole (a split
// surrogate pair would be written as U+FFFD, and a correct server would be
// failed for echoing what it was sent).
import t from 'tap';
import { chunks } from '../../conformance/checks/http.js';
import { runConformance } from '../../conformance/index.js';
import { startServer } from '../../src/index.js';

t.test('a body is chunked between characters, never inside a surrogate pair', async (t) => {
  for (const body of ['{"name":"🐈🐈"}', '{"name":"a🐈"}', 'x🐈', '🐈x', '{"name":"plain"}']) {
    const text = chunks(body);
    const parts: string[] = [];
    for (let rest = text; !rest.startsWith('0\r\n') && rest !== ''; ) {
      const line = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.slice(0, line), 16);
      const data = Buffer.from(rest.slice(line + 2), 'utf8')
        .subarray(0, size)
        .toString('utf8');
      parts.push(data);
      rest = rest.slice(line + 2 + data.length + 2);
    }
    t.equal(parts.join(''), body, `${JSON.stringify(body)} comes back whole from its chunks`);
    t.notOk(parts.join('').includes('\ufffd'), 'no replacement character');
  }
});

t.test('the run that once failed the reference server (seed 404268968) passes', async (t) => {
  const api = await startServer();
  t.teardown(() => api.close());
  const result = await runConformance({
    baseUrl: api.url,
    apiKey: api.apiKey,
    seed: 404268968,
    runs: 5,
    families: ['http'],
    checkIds: ['http.createPet.message'],
  });
  t.same(
    result.failures.map((f) => f.message),
    [],
    'no failure',
  );
  t.equal(result.checks.find((c) => c.id === 'http.createPet.message')?.status, 'passed');
});
