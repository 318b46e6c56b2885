// deprecation.createPet.not-deprecated: the request that asks createPet
// whether it says it is deprecated is one its route handles, a JSON object
// (one the seed requires refused, so nothing is created), not an empty body a
// framework's body reader refuses before any route runs. Shown with a gateway
// in front of the reference server that plays such a service: its body reader
// refuses an empty body first, and its createPet route marks every answer
// deprecated (RFC 9745, a date already past).
import t from 'tap';
import { runCheck } from '../../helpers/check-run.js';
import { jsonAnswer, startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

const CHECK = 'deprecation.createPet.not-deprecated';

t.test('a createPet route that says it is deprecated behind a body reader that refuses empty bodies first fails', async (t) => {
  const { url, key } = await startTestServer(t);
  const front = await startFront(t, url, async (req, forward) => {
    if (req.operationId !== 'createPet') return forward();
    if (req.body.length === 0) return jsonAnswer(400, { code: 'invalid_body', message: 'a JSON body is required', status: 400 });
    const answer = await forward();
    return { ...answer, headers: { ...answer.headers, deprecation: '@1688169599' } };
  });
  const { status, message } = await runCheck(front, key, CHECK);
  t.equal(status, 'failed');
  t.match(message, /createPet answers with Deprecation: @1688169599, but the spec does not deprecate it/);
});

t.test('the reference server passes, and creates nothing', async (t) => {
  const { server, url, key } = await startTestServer(t);
  t.equal((await runCheck(url, key, CHECK)).status, 'passed');
  t.equal(server.store.size, 0);
});
