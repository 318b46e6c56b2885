// The framework servers of fixtures/frameworks, every one, with the default
// number of runs, as users run the suite (the fast tier runs the framework of
// the day: test/fixtures/frameworks.test.ts). Where one of them answers what
// the seed or the RFCs leave open (FastAPI reads petId " 1" as 1, Fastify's
// ajv reads "0x10" as 16, uvicorn keeps a connection open after a request
// with both Transfer-Encoding and Content-Length), that is an advisory, never
// a failure. Seed 1 throughout.
import t from 'tap';
import { startFramework } from '../../fixtures/frameworks/index.mjs';
import { testFrameworks } from '../fixtures/frameworks.js';
import { conformJson, describeFailures } from '../helpers/run-conform.js';

// Eight default runs and two probes: about a minute on an idle machine, twice that beside other work.
t.setTimeout(600_000);

testFrameworks(t, []);

t.test("a framework's lenient reading of petId is an advisory: FastAPI serves pet 1 for /pets/%201", async (t) => {
  const server = await startFramework('fastapi', { apiKey: 'test-key-frameworks' });
  t.teardown(() => server.close());
  const { code, result } = await conformJson(server.url, server.apiKey, ['--checks', 'not-found.getPet.malformed-ids']);
  t.equal(code, 0, describeFailures(result));
  t.equal(result.checks.find((c) => c.id === 'not-found.getPet.malformed-ids')?.status, 'advisory', 'the check ends advisory');
  t.ok(
    result.advisories.some((a) => a.decision === 'malformed-id'),
    'with the malformed-id advisory',
  );
});

t.test("the cors middleware's 204 with Content-Length: 0 to every OPTIONS is an advisory, not a failure (RFC 9112 §6.3)", async (t) => {
  const server = await startFramework('express-cors', { apiKey: 'test-key-frameworks' });
  t.teardown(() => server.close());
  const { code, result } = await conformJson(server.url, server.apiKey, ['--checks', 'http']);
  t.equal(code, 0, describeFailures(result));
  t.ok(
    result.advisories.some((a) => a.decision === 'no-content-length-zero'),
    'with the no-content-length-zero advisory',
  );
});
