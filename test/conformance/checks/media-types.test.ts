// media-types: what the accept check takes for a JSON answer (RFC 9110
// §8.3.1: the type and subtype are compared whole, parameters aside), shown on
// answers a gateway in front of the reference server changes; and what the
// catalogue of other media types is there for.
import t, { type Test } from 'tap';
import { OTHER_MEDIA_TYPES } from '../../../conformance/checks/media-types.js';
import { runCheck } from '../../helpers/check-run.js';
import { type FrontAnswer, startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

const CHECK = 'media-types.getPet.accept';

/** The check against the reference server behind a front that changes getPet's 200s with `change`. */
async function acceptCheck(t: Test, change?: (answer: FrontAnswer) => FrontAnswer) {
  const { url, key } = await startTestServer(t);
  const front = await startFront(t, url, async (req, forward) => {
    const answer = await forward();
    return change && req.operationId === 'getPet' && answer.status === 200 ? change(answer) : answer;
  });
  return runCheck(front, key, CHECK);
}

t.test('the reference server, its answers passed on unchanged, passes', async (t) => {
  t.equal((await acceptCheck(t)).status, 'passed');
});

t.test('a 200 labelled with another subtype that begins with json (application/json-seq, RFC 7464) is not application/json', async (t) => {
  const { status, message } = await acceptCheck(t, (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'application/json-seq' } }));
  t.equal(status, 'failed');
  t.match(message, /Content-Type application\/json-seq, not application\/json/);
});

t.test('a 200 labelled application/json whose body is cut short is not JSON', async (t) => {
  const { status, message } = await acceptCheck(t, (a) => ({ ...a, body: a.body.subarray(0, a.body.length - 1) }));
  t.equal(status, 'failed');
  t.match(message, /the body is not JSON/);
});

t.test('application/json with parameters and in other letter cases is JSON (RFC 9110 §8.3.1)', async (t) => {
  const { status } = await acceptCheck(t, (a) => ({ ...a, headers: { ...a.headers, 'content-type': 'Application/JSON ; charset=utf-8' } }));
  t.equal(status, 'passed');
});

t.test('the other media types include one that only begins like application/json, for a reader matching a prefix', async (t) => {
  const prefixOnly = OTHER_MEDIA_TYPES.filter((type) => type?.toLowerCase().startsWith('application/json') && !/^application\/json\s*(;|$)/i.test(type));
  t.ok(prefixOnly.length > 0, `${JSON.stringify(prefixOnly)}: startsWith('application/json') takes it for JSON, RFC 9110 does not`);
});
