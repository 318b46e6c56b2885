// When answers leave (src/server/outbox.ts): at once after the loop has
// waited for input; held to the end of the turn while the server is busy,
// then written in the order they were made, none lost.
import { Agent, request as httpRequest, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setImmediate as turnEnd, setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { createOutbox } from '../../../src/server/outbox.js';
import { startTestServer } from '../../helpers/server.js';

/** A stand-in response that records what it was ended with. */
function fakeResponse(log: string[], name: string, fails = false): ServerResponse {
  return {
    end(body: string) {
      if (fails) throw new Error(`${name} broke`);
      log.push(`${name}:${body}`);
    },
  } as unknown as ServerResponse;
}

t.test('an answer made after the loop waited goes out at once', async (t) => {
  const log: string[] = [];
  let idle = 0;
  const outbox = createOutbox(
    () => t.fail('no error expected'),
    () => idle,
  );
  outbox.end(fakeResponse(log, 'a'), '1');
  t.strictSame(log, ['a:1'], 'the first answer is not held');
  idle = 5;
  outbox.end(fakeResponse(log, 'b'), '2');
  t.strictSame(log, ['a:1', 'b:2'], 'nor one made after another wait');
});

t.test('answers made while busy wait for the end of the turn, then leave in order', async (t) => {
  const log: string[] = [];
  const outbox = createOutbox(
    () => t.fail('no error expected'),
    () => 7,
  );
  outbox.end(fakeResponse(log, 'a'), '1');
  outbox.end(fakeResponse(log, 'b'), '2');
  outbox.end(fakeResponse(log, 'c'), '3');
  t.strictSame(log, ['a:1'], 'only the first, made after a wait, has left');
  await turnEnd();
  t.strictSame(log, ['a:1', 'b:2', 'c:3'], 'the held answers leave at the end of the turn, in order');
  outbox.end(fakeResponse(log, 'd'), '4');
  t.strictSame(log.length, 3, 'still busy (no wait since): held again');
  await turnEnd();
  t.strictSame(log.at(-1), 'd:4');
});

t.test('while answers are held, a new one joins them even after a wait, so none overtakes', async (t) => {
  const log: string[] = [];
  let idle = 1;
  const outbox = createOutbox(
    () => t.fail('no error expected'),
    () => idle,
  );
  outbox.end(fakeResponse(log, 'a'), '1');
  outbox.end(fakeResponse(log, 'b'), '2');
  idle = 2;
  outbox.end(fakeResponse(log, 'c'), '3');
  t.strictSame(log, ['a:1']);
  await turnEnd();
  t.strictSame(log, ['a:1', 'b:2', 'c:3']);
});

t.test('a held answer that throws is reported, and the others still leave', async (t) => {
  const log: string[] = [];
  const errors: string[] = [];
  const outbox = createOutbox(
    (error) => errors.push((error as Error).message),
    () => 0,
  );
  outbox.end(fakeResponse(log, 'a'), '1');
  outbox.end(fakeResponse(log, 'b', true), '2');
  outbox.end(fakeResponse(log, 'c'), '3');
  await turnEnd();
  t.strictSame(errors, ['b broke']);
  t.strictSame(log, ['a:1', 'c:3']);
});

/**
 * Resolves once the event loop has blocked waiting for input. A timer alone
 * does not ensure it: while other work is pending in this process (the test
 * helpers load Prism at import), the loop never blocks, which is busy too.
 */
async function loopWaited(): Promise<void> {
  const before = performance.nodeTiming.idleTime;
  for (let i = 0; i < 500 && performance.nodeTiming.idleTime === before; i++) await sleep(10);
}

t.test('with the real loop: answers made in one stretch are held; one made after the loop waited leaves at once', async (t) => {
  const log: string[] = [];
  const outbox = createOutbox(() => t.fail('no error expected'));
  await loopWaited();
  outbox.end(fakeResponse(log, 'a'), '1');
  outbox.end(fakeResponse(log, 'b'), '2');
  t.strictSame(log, ['a:1'], 'no wait between the two: the second is held');
  await turnEnd();
  t.strictSame(log, ['a:1', 'b:2']);
  await loopWaited();
  outbox.end(fakeResponse(log, 'c'), '3');
  t.strictSame(log.at(-1), 'c:3', 'after a wait: at once');
});

t.test('a burst on many connections: every answer arrives whole and in its own connection', async (t) => {
  const { url, key } = await startTestServer(t);
  const agent = new Agent({ keepAlive: true, maxSockets: 40 });
  t.teardown(() => agent.destroy());
  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${url}${path}`, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  for (let round = 0; round < 5; round++) {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => get(i % 2 === 0 ? `/pets?limit=${1 + i}` : `/pets/${i}`)));
    answers.forEach((answer, i) => {
      if (i % 2 === 0) t.equal(answer.status, 200, `listPets limit=${1 + i}`);
      else t.equal(answer.status, 404, `getPet ${i} (no such pet)`);
      t.doesNotThrow(() => JSON.parse(answer.body), 'a whole JSON body');
    });
  }
});
