// The suite is meant to be pointed at a shared staging environment, so it
// must be safe there: bounded writes (none with --read-only), recognisable
// pets, a time budget, no request ever to another origin, and a clear answer
// (never a crash or a hang) from a target that misbehaves at the HTTP level.
import http from 'node:http';
import net from 'node:net';
import t, { type Test } from 'tap';
import { request } from 'undici';
import { startVariant } from '../../../fixtures/implementations/index.mjs';
import { createServer, type PetstoreServer } from '../../../src/server/index.js';
import { METHODS } from '../../../conformance/catalogues/methods.js';
import { createClient } from '../../../conformance/client.js';
import { conformJson, describeFailures, runCli } from '../../helpers/run-conform.js';

const KEY = 'safety-key-1';
const SEED_PETS = [
  { name: 'Rex', categoryId: 1n, status: 'available' },
  { name: 'Tom', categoryId: 2n, status: 'sold' },
  { name: 'Kit', categoryId: 3n },
] as const;

/** A reference server that counts the requests it receives, by method. */
async function countingServer(t: Test): Promise<{ server: PetstoreServer; url: string; methods: Map<string, number> }> {
  const server = createServer({ apiKeys: [KEY], seed: SEED_PETS as never, onError: (error) => t.fail(String(error)) });
  const methods = new Map<string, number>();
  server.http.on('request', (req: http.IncomingMessage) => methods.set(req.method!, (methods.get(req.method!) ?? 0) + 1));
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  return { server, url, methods };
}

/** The names of every pet the server holds (ids are 1, 2, 3…), read through getPet. */
async function allNames(url: string, count: number): Promise<string[]> {
  const names: string[] = [];
  for (let id = 1; id <= count; id++) {
    const res = await request(`${url}/pets/${id}`, { headers: { authorization: `Bearer ${KEY}` } });
    names.push((JSON.parse(await res.body.text()) as { name: string }).name);
  }
  return names;
}

t.test('--read-only sends no POST and creates no pet, and the reference server still passes', async (t) => {
  const { server, url, methods } = await countingServer(t);
  const { code, result } = await conformJson(url, KEY, ['--read-only', '--runs', '30']);
  t.equal(code, 0, describeFailures(result));
  t.equal(methods.get('POST') ?? 0, 0, 'no POST reached the server');
  // HEAD is sent by the routes family (HEAD for GET without a key), OPTIONS and the WebDAV reads by the http
  // family (other methods on the interface's paths): all of them safe (RFC 9110 §9.2.1, the IANA registry).
  const safe = new Set(METHODS.filter((m) => m.safe).map((m) => m.method));
  t.strictSame(
    [...methods.keys()].filter((method) => !safe.has(method)),
    [],
    `only safe methods (sent: ${[...methods.keys()].sort().join(', ')})`,
  );
  t.equal(server.store.size, SEED_PETS.length, 'the store holds only its seed');
  t.equal(result.writes, 0);
  const skipped = result.checks.filter((c) => c.status === 'skipped');
  t.ok(skipped.length > 0 && skipped.some((c) => c.note?.includes('--read-only')), 'the checks that write are reported as skipped');
  t.ok(result.checks.filter((c) => c.status === 'passed').length >= 8, 'the read-only checks still ran');
});

t.test('--max-writes 30 never sends more than 30 POSTs nor creates more than 30 pets, and the run still passes', async (t) => {
  const { server, url, methods } = await countingServer(t);
  const { code, result } = await conformJson(url, KEY, ['--max-writes', '30']);
  t.equal(code, 0, describeFailures(result));
  t.ok((methods.get('POST') ?? 0) <= 30, `${methods.get('POST')} POSTs`);
  t.ok(server.store.size - SEED_PETS.length <= 30, `${server.store.size - SEED_PETS.length} pets created`);
  t.ok(server.store.size > SEED_PETS.length, 'some pets were created');
  t.equal(result.writes, methods.get('POST'), 'the result counts the writes that were sent');
  t.ok(
    result.checks.some((c) => /write budget/.test(c.note ?? '')),
    'a check says the write budget ended it',
  );
});

for (const prefix of [undefined, 'zz-staging-test-']) {
  t.test(`every pet the run creates has its name prefixed with ${prefix ?? 'conform- (the default)'}`, async (t) => {
    const { server, url } = await countingServer(t);
    const { code, result } = await conformJson(url, KEY, ['--runs', '20', ...(prefix ? ['--name-prefix', prefix] : [])]);
    t.equal(code, 0, describeFailures(result));
    const created = (await allNames(url, server.store.size)).slice(SEED_PETS.length);
    t.ok(created.length >= 50, `${created.length} pets created`);
    const wanted = prefix ?? 'conform-';
    const unprefixed = created.filter((name) => !name.startsWith(wanted));
    t.strictSame(unprefixed, [], `every name starts with ${wanted}`);
  });
}

t.test('--time-budget 2 against a target that takes 30 ms per answer ends in bounded time, reporting skipped checks, not failures', async (t) => {
  const target = await startVariant('slow-responses', { apiKey: KEY });
  t.teardown(() => target.close());
  const started = performance.now();
  const { code, result } = await conformJson(target.url, KEY, ['--time-budget', '2']);
  const wall = performance.now() - started;
  t.equal(code, 0, describeFailures(result));
  t.strictSame(result.failures, [], 'no failure');
  const skipped = result.checks.filter((c) => c.status === 'skipped');
  t.ok(skipped.length > 0, `${skipped.length} checks skipped`);
  t.ok(
    skipped.every((c) => /time budget/.test(c.note ?? '')),
    'each says the time budget ended it',
  );
  t.ok(result.durationMs < 6_000, `the run took ${Math.round(result.durationMs)} ms for a 2 s budget`);
  t.ok(wall < 20_000, `the command took ${Math.round(wall)} ms`);
});

t.test('a target that redirects to another origin: the suite never contacts that origin, and names the base URL to use (exit 2)', async (t) => {
  const other = { connections: 0, authorizations: [] as string[] };
  const otherServer = http.createServer((req, res) => {
    if (req.headers.authorization) other.authorizations.push(req.headers.authorization);
    res.setHeader('content-type', 'application/json').end('[]');
  });
  otherServer.on('connection', () => other.connections++);
  await new Promise<void>((resolve) => otherServer.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => otherServer.close(resolve)));
  const otherOrigin = `http://127.0.0.1:${(otherServer.address() as net.AddressInfo).port}`;
  const redirecting = http.createServer((req, res) => {
    req.resume();
    res.writeHead(302, { location: `${otherOrigin}${req.url}`, 'content-length': 0 }).end();
  });
  await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    redirecting.closeAllConnections();
    return new Promise((resolve) => redirecting.close(resolve));
  });

  const { code, stdout, stderr } = await runCli([
    'conform',
    '--base-url',
    `http://127.0.0.1:${(redirecting.address() as net.AddressInfo).port}/v1`,
    '--api-key',
    KEY,
    '--runs',
    '10',
  ]);
  t.equal(code, 2, 'exit code 2: a redirect of the base URL is a wrong target, not a failed requirement');
  t.equal(stdout, '');
  t.match(
    stderr,
    `answered 302 with Location: ${otherOrigin}/v1/pets; the suite follows no redirect (the key would travel with it), so give --base-url ${otherOrigin}/v1`,
  );
  t.equal(other.connections, 0, 'no connection to the other origin');
  t.strictSame(other.authorizations, [], 'the key never travelled there');
});

/** A connection-level target: answers the preflight (GET /v1/pets) with [] and everything else with `misbehave`. */
async function rawTarget(t: Test, misbehave: (socket: net.Socket) => void): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      if (head.startsWith('GET /v1/pets HTTP/1.1\r\n')) {
        // The one well-formed answer: the list, to the valid key only (a wrong key is refused as it should be).
        if (/\r\nauthorization: bearer (\S+)\r\n/i.exec(head)?.[1] === KEY) {
          socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n[]');
        } else {
          const error = '{"code":"unauthorized","message":"no","status":401}';
          socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: ${error.length}\r\nConnection: close\r\n\r\n${error}`);
        }
      } else misbehave(socket);
      head = '';
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1`;
}

t.test('a target that accepts connections and never answers: with --timeout 500 --time-budget 10, exit 2 with one line, in bounded time', async (t) => {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => silent.close(resolve));
  });
  const started = performance.now();
  const run = await runCli([
    'conform',
    '--base-url',
    `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/v1`,
    '--api-key',
    KEY,
    '--timeout',
    '500',
    '--time-budget',
    '10',
    '--quiet',
  ]);
  const wall = performance.now() - started;
  t.equal(run.code, 2, 'exit code 2: the target cannot be talked to');
  t.match(run.stderr, /^petstore: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: no answer within 500 ms\n$/, 'one line that says why');
  t.ok(sockets.size > 0, 'the target was connected to');
  t.ok(wall < 15_000, `done in ${Math.round(wall)} ms`);
});

t.test('a target that answers the first request and then hangs: every check fails with "no answer within 500 ms", in bounded time', async (t) => {
  const url = await rawTarget(t, () => {});
  const started = performance.now();
  const { code, result, stderr } = await conformJson(url, KEY, ['--timeout', '500', '--time-budget', '10']);
  const wall = performance.now() - started;
  t.equal(code, 1, 'exit code 1');
  t.equal(stderr, '', 'nothing on stderr');
  // The http family judges the one answer the target gave (a 200 without Date, to a request without Host) as well.
  const judged = result.failures.filter((f) => f.family !== 'http' || f.message.startsWith('no valid HTTP answer'));
  t.ok(judged.length > 5 && judged.every((f) => f.message === 'no valid HTTP answer: no answer within 500 ms'), describeFailures(result));
  t.ok(wall < 20_000, `done in ${Math.round(wall)} ms`);
});

const misbehaviours: Record<string, { answer: (socket: net.Socket) => void; message: RegExp }> = {
  'answers HTML instead of JSON': {
    answer: (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 17\r\nConnection: close\r\n\r\n<html>oops</html>'),
    message: /Content-Type is text\/html, not application\/json|the body is not JSON/,
  },
  'sends fewer bytes than its Content-Length': {
    answer: (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n[]'),
    message: /^no valid HTTP answer: .*(content-length|closed)/i,
  },
  'resets the connection': {
    answer: (socket) => socket.resetAndDestroy(),
    message: /^no valid HTTP answer: the connection was reset or closed before a complete answer$/,
  },
  'answers garbage that is not HTTP': {
    answer: (socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'),
    message: /^no valid HTTP answer: /,
  },
};

for (const [label, { answer, message }] of Object.entries(misbehaviours)) {
  t.test(`a target that ${label} gets clear failures, exit 1, and no crash`, async (t) => {
    const url = await rawTarget(t, answer);
    const started = performance.now();
    const { code, result, stderr } = await conformJson(url, KEY, ['--timeout', '2000', '--runs', '20']);
    t.equal(code, 1, 'exit code 1');
    t.equal(stderr, '', 'nothing on stderr');
    t.ok(result.failures.length > 0, 'failures');
    t.ok(
      result.failures.some((f) => message.test(f.message)),
      `a failure says what went wrong; the failures:\n${describeFailures(result)}`,
    );
    t.notOk(
      result.failures.some((f) => /the check itself failed/.test(f.message)),
      'no failure is the suite itself breaking',
    );
    t.ok(performance.now() - started < 20_000, 'in bounded time');
  });
}

/** The suite's client against a bare node:http target answering with `answer`. */
async function clientAgainst(t: Test, answer: http.RequestListener, { maxResponseBytes = 1024 * 1024, concurrency = 1 } = {}) {
  const target = http.createServer(answer);
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.teardown(() => target.close());
  const client = createClient({
    baseUrl: `http://127.0.0.1:${(target.address() as net.AddressInfo).port}/v1`,
    apiKey: 'k',
    timeoutMs: 5_000,
    concurrency,
    rate: 0,
    maxWrites: 1,
    maxResponseBytes,
  });
  t.teardown(() => client.close());
  return client;
}

const listPets = { method: 'GET', path: '/pets', headers: {}, operationId: 'listPets' } as const;
/** 429 Too Many Requests, to be sent again at once (Retry-After: 0). */
function refuseForNow(res: http.ServerResponse): void {
  res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"code":"slow_down","message":"later","status":429}');
}

t.test('a write sent again after a 429 counts once against --max-writes', async (t) => {
  let posts = 0;
  const client = await clientAgainst(t, (req, res) => {
    req.resume();
    posts++;
    // The first two attempts are rate-limited; the third is accepted.
    if (posts <= 2) refuseForNow(res);
    else res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1,"name":"Rex","categoryId":1}');
  });
  const response = await client.send('validation', {
    method: 'POST',
    path: '/pets',
    headers: { 'content-type': 'application/json' },
    body: '{"name":"Rex","categoryId":1}',
    operationId: 'createPet',
  });
  t.equal(response.status, 201, 'sent three times, answered 201 on the third');
  t.equal(posts, 3);
  t.strictSame(client.stats(), { requests: 3, writes: 1, rateLimited: 2 }, 'one write in the budget, three requests on the wire');
});

t.test('a response body larger than maxResponseBytes is a transport error, and the rest of it is not read', async (t) => {
  let written = 0;
  const client = await clientAgainst(
    t,
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      // Writes until the client goes away: a body without end.
      const more = () => {
        while (!res.destroyed && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
      };
      res.on('close', () => res.removeAllListeners('drain'));
      more();
    },
    { maxResponseBytes: 100_000 },
  );
  await t.rejects(client.send('responses', listPets), { code: 'transport_error', message: 'the response body is larger than 100000 bytes' });
  t.ok(written < 64 * 1024 * 1024, `the client stopped reading (the target wrote ${written} bytes)`);
});

t.test('a response is read whole: headers by lower-case name, a repeated field joined, a 103 before the answer skipped', async (t) => {
  const client = await clientAgainst(t, (_req, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload' });
    res.setHeader('X-Repeated', ['one', 'two']);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('[{"id":9007199254740993,');
    setTimeout(() => res.end('"name":"Rex","categoryId":1}]'), 10);
  });
  const response = await client.send('responses', listPets);
  t.equal(response.status, 200);
  t.equal(response.headers['content-type'], 'application/json');
  t.equal(response.headers['x-repeated'], 'one, two');
  t.equal(response.text, '[{"id":9007199254740993,"name":"Rex","categoryId":1}]', 'both chunks, in order');
  t.strictSame(response.json, [Object.assign(Object.create(null), { id: 9007199254740993n, name: 'Rex', categoryId: 1n })], 'parsed losslessly');
});

t.test('a target that refuses every fifth request, in turn, does not keep refusing the same request (retries are jittered)', async (t) => {
  // One request at a time, first come first served, 2 ms each: with five
  // clients in step, a retry sent at once would always arrive fifth again.
  let arrivals = 0;
  const queue: (() => void)[] = [];
  let busy = false;
  const next = () => {
    const job = queue.shift();
    if (!job) return void (busy = false);
    busy = true;
    setTimeout(() => {
      job();
      next();
    }, 2);
  };
  const client = await clientAgainst(
    t,
    (req, res) => {
      req.resume();
      const refused = ++arrivals % 5 === 0;
      queue.push(() => {
        if (refused) refuseForNow(res);
        else res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      });
      if (!busy) next();
    },
    { concurrency: 5 },
  );
  const statuses = await Promise.all(
    Array.from({ length: 5 }, async () => {
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) seen.push((await client.send('responses', listPets)).status);
      return seen;
    }),
  );
  t.strictSame(
    statuses.flat().filter((status) => status !== 200),
    [],
    'every request got its answer in the end',
  );
});

t.test('a request the target still answers 429 after ten retries ends in RateLimited, not in the 429', async (t) => {
  let sent = 0;
  const client = await clientAgainst(t, (_req, res) => {
    sent++;
    refuseForNow(res);
  });
  await t.rejects(client.send('responses', listPets), { code: 'rate_limited', message: /GET \/pets was answered 429 Too Many Requests 11 times in a row/ });
  t.equal(sent, 11, 'the first attempt and ten more');
  t.equal(client.stats().rateLimited, 10);
});

t.test('checks whose requests a target rate-limits for good are skipped, not failed (seed §8: rate limits are not shown)', async (t) => {
  // express-rate-limit's default (a few requests a minute) does this to a whole run; here only requests with `limit`.
  const server = createServer({ apiKeys: [KEY], seed: SEED_PETS as never, onError: (error) => t.fail(String(error)) });
  const [serve] = server.http.listeners('request') as http.RequestListener[];
  server.http.removeAllListeners('request');
  server.http.on('request', (req: http.IncomingMessage, res: http.ServerResponse) =>
    /[?&]limit=/.test(req.url ?? '') ? refuseForNow(res) : serve!.call(server.http, req, res),
  );
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const { code, result } = await conformJson(url, KEY, ['--runs', '5', '--checks', 'limits,not-found']);
  t.equal(code, 0, describeFailures(result));
  t.strictSame(result.failures, [], 'no failure');
  const limited = result.checks.filter((c) => c.status === 'skipped' && /^rate limited: /.test(c.note ?? ''));
  t.ok(limited.length > 0, `checks skipped as rate limited: ${limited.map((c) => c.id).join(', ')}`);
  t.ok(
    result.advisories.some((a) => a.decision === 'rate-limits'),
    'and the rate-limits advisory',
  );
  t.ok(
    result.checks.some((c) => c.family === 'not-found' && c.status === 'passed'),
    'the checks it did not rate-limit ran and passed',
  );
});

t.test('a target that rate-limits even the first request: exit 2, nothing was tested', async (t) => {
  const target = http.createServer((_req, res) => refuseForNow(res));
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  t.teardown(() => target.close());
  const { code, stderr } = await runCli(['conform', '--base-url', `http://127.0.0.1:${(target.address() as net.AddressInfo).port}/v1`, '--api-key', KEY]);
  t.equal(code, 2);
  t.match(stderr, /rate-limits every attempt of the first request: GET \/pets was answered 429 Too Many Requests 11 times in a row/);
});
