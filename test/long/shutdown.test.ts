// Shutdown under load (README "petstore serve"): SIGTERM stops accepting,
// lets the requests in flight finish within the grace period, then exits 0.
// Nothing is lost or invented on the way: with --state, the file written at
// exit holds exactly the pets whose 201 reached a client. test/cli and
// test/server cover a single request in flight and close() in process.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { Pool } from 'undici';
import { startServe } from '../helpers/cli.js';
import { sleep } from '../hostile/wire.js';

const KEY = 'shutdown-key';

t.test('SIGTERM in the middle of a burst of creates: exit 0, and the state file holds exactly the pets whose 201 arrived', async (t) => {
  const file = join(t.testdir(), 'pets.json');
  const cli = await startServe(t, ['--state', file, '--state-interval', '3600', '--quiet'], { PETSTORE_API_KEYS: KEY });
  const origin = new URL(cli.url).origin;
  const base = new URL(cli.url).pathname;
  const pool = new Pool(origin, { connections: 20 });
  t.teardown(() => pool.destroy());

  const answered: string[] = [];
  const failures = new Map<string, number>();
  let stopping = false;
  let sent = 0;
  const worker = async () => {
    while (sent < 5_000) {
      const i = sent++;
      try {
        const res = await pool.request({
          path: `${base}/pets`,
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: `{"name":"burst-${i}","categoryId":${9007199254740993n + BigInt(i)}}`,
        });
        const text = await res.body.text();
        if (res.statusCode === 201) answered.push(text);
        else failures.set(String(res.statusCode), (failures.get(String(res.statusCode)) ?? 0) + 1);
      } catch (error) {
        // Once the server stops, new connections are refused and idle ones closed: expected, and nothing was created.
        const code = (error as { code?: string }).code ?? (error as Error).name;
        failures.set(code, (failures.get(code) ?? 0) + 1);
        if (!stopping) throw error;
        if (code === 'ECONNREFUSED') return;
      }
    }
  };
  const workers = Array.from({ length: 20 }, worker);
  await sleep(400);
  stopping = true;
  cli.child.kill('SIGTERM');
  await Promise.all(workers);
  const exit = await cli.exited;
  t.strictSame(exit, { code: 0, signal: null }, 'exit code 0');
  t.comment(`${answered.length} answered 201 before the stop; others: ${JSON.stringify(Object.fromEntries(failures))}`);
  t.ok(answered.length > 50, 'creates were under way when SIGTERM arrived');
  t.notOk(
    [...failures.keys()].some((k) => /^[1-5]\d\d$/.test(k)),
    'no request got an answer other than 201',
  );

  const byId = answered.map((text) => [Number(/^\{"id":(\d+),/.exec(text)?.[1]), text] as const).sort(([a], [b]) => a - b);
  t.strictSame(
    byId.map(([id]) => id),
    Array.from({ length: byId.length }, (_, i) => i + 1),
    'the answered ids are 1..N without a gap',
  );
  const state = readFileSync(file, 'utf8');
  t.equal(state, `[${byId.map(([, text]) => text).join(',')}]`, 'the state file holds exactly those pets, digit for digit: none lost, none invented');
  t.equal(cli.stderr(), '', 'nothing on stderr');
});

t.test('SIGTERM with a request that never finishes and a client trickling headers: exit 0 once the grace period is over', async (t) => {
  const cli = await startServe(t, ['--quiet'], { PETSTORE_API_KEYS: KEY });
  const port = Number(new URL(cli.url).port);
  const stalled = net.connect(port, '127.0.0.1');
  stalled.on('error', () => {});
  stalled.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name"`);
  const trickler = net.connect(port, '127.0.0.1');
  trickler.on('error', () => {});
  const timer = setInterval(() => trickler.writable && trickler.write('G'), 100);
  t.teardown(() => {
    clearInterval(timer);
    stalled.destroy();
    trickler.destroy();
  });
  await sleep(300);
  const started = Date.now();
  cli.child.kill('SIGTERM');
  const exit = await Promise.race([cli.exited, sleep(12_000).then(() => 'still running')]);
  const took = Date.now() - started;
  t.strictSame(exit, { code: 0, signal: null }, `exit code 0 after ${took} ms`);
  t.ok(took < 8_000, 'within the 5 s grace period and a little');
});
