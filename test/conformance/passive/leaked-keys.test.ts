import t from 'tap';
import { toExchange } from '../../../conformance/passive/judge.js';
import { keyFindings } from '../../../conformance/passive/leaked-keys.js';
import type { PassedExchange } from '../../../conformance/passive/passive-vocabulary.js';
import { operations } from '../../../spec/operations.js';

const KEY = 'secret-key-1';

const answered = (path: string, status: number, body: string, requestHeaders: PassedExchange['requestHeaders'] = { authorization: `Bearer ${KEY}` }) =>
  toExchange(
    {
      method: 'GET',
      path,
      requestHeaders,
      status,
      responseHeaders: { 'content-type': 'application/json', date: new Date().toUTCString() },
      responseBody: Buffer.from(body),
      durationMs: 1,
    },
    operations,
  );

t.test('the key a request presented, in the Error of its answer, is a leak (§5)', async (t) => {
  t.match(keyFindings(answered('/pets/9', 404, `{"code":"not_found","message":"no pet 9 for ${KEY}","status":404}`), []), [
    { rule: 'leaks.getPet.key', severity: 'error', operationId: 'getPet', problem: 'the body of the 404 answer holds the API key' },
  ]);
});

t.test("a key the request itself carried elsewhere, echoed back, is the client's own text, not a leak", async (t) => {
  const target = `/pets/x?api_key=${KEY}`;
  const echo = `{"code":"not_found","message":"Route GET:/v1${target} not found","status":404}`;
  t.same(keyFindings(answered(target, 404, echo), []), [], 'in the target: a framework 404 names the route it did not find');
  const header = answered('/pets/x', 400, `{"code":"bad","message":"X-Api-Key ${KEY} is not used","status":400}`, {
    authorization: `Bearer ${KEY}`,
    'x-api-key': KEY,
  });
  t.same(keyFindings(header, []), [], 'in another field');
});

t.test('a key an earlier answer accepted, in an answer to a request without it, is a leak', async (t) => {
  const accepted: string[] = [];
  t.same(keyFindings(answered('/pets', 200, '[]'), accepted), []);
  t.same(accepted, [KEY], 'remembered once accepted');
  const other = answered('/pets/1', 404, `{"code":"not_found","message":"expected ${KEY}","status":404}`, { authorization: 'Bearer another-key-2' });
  t.match(keyFindings(other, accepted), [{ rule: 'leaks.getPet.key' }]);
});
