// concurrency.createPet.burst: a burst is creates sent at once, two at least
// (a race needs two) and --concurrency at most; each pet of it is then read
// back and must come back 200, the one status §4.3 gives getPet. Shown at the
// reference server's sockets and through a gateway in front of it.
import t from 'tap';
import { runCheck } from '../../helpers/check-run.js';
import { specRoute, startFront } from '../../helpers/front.js';
import { startTestServer } from '../../helpers/server.js';

const CHECK = 'concurrency.createPet.burst';

t.test('every burst sends between 2 and --concurrency creates', async (t) => {
  const { server, url, key } = await startTestServer(t);
  const basePath = new URL(url).pathname;
  // A burst's creates come first, then a getPet for each of its pets: the creates before the reads are one burst.
  const bursts: number[] = [];
  let creates = 0;
  server.http.prependListener('request', (req) => {
    if (req.method === 'POST') creates++;
    else if (specRoute(req.method ?? '', new URL(req.url ?? '/', url).pathname.slice(basePath.length)).operationId === 'getPet' && creates > 0) {
      bursts.push(creates);
      creates = 0;
    }
  });
  const concurrency = 4;
  const { status } = await runCheck(url, key, CHECK, { runs: 300, concurrency, seed: 3 });
  t.equal(status, 'passed');
  t.ok(bursts.length >= 30, `${bursts.length} bursts`);
  t.ok(
    bursts.every((n) => n >= 2 && n <= concurrency),
    `sizes ${JSON.stringify(bursts)}`,
  );
});

t.test('a pet of a burst read back with another 2xx than 200 (a 203 from a transforming proxy) fails the check', async (t) => {
  const { url, key } = await startTestServer(t);
  const front = await startFront(t, url, async (req, forward) => {
    const answer = await forward();
    return req.operationId === 'getPet' && answer.status === 200 ? { ...answer, status: 203 } : answer;
  });
  const { status, message } = await runCheck(front, key, CHECK);
  t.equal(status, 'failed');
  t.match(message, /getting pet \d+, created in a burst/);
  t.match(message, /replay the burst \(\d+ creates at once\)/, 'with the script that replays the burst');
});

t.test('the reference server behind a front that changes nothing passes', async (t) => {
  const { url, key } = await startTestServer(t);
  t.equal((await runCheck(await startFront(t, url, (_, forward) => forward()), key, CHECK)).status, 'passed');
});
