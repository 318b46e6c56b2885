// Closing a connection without cutting off the answer on it (src/server/linger.ts,
// RFC 9112 §9.6): the socket is ended, not destroyed, and destroyed only after
// 2 s if the client neither reads nor closes; when the client closes, the wait ends.
import { once } from 'node:events';
import net from 'node:net';
import t, { type Test } from 'tap';
import { endAndLinger, lingerAfterAnswer } from '../../../src/server/linger.js';

/** A connected pair on 127.0.0.1: the server's side and the client's, both allowing half-open connections (as an HTTP server's do). */
async function connectedPair(t: Test): Promise<{ server: net.Socket; client: net.Socket }> {
  const listener = net.createServer({ allowHalfOpen: true });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const accepted = once(listener, 'connection') as Promise<[net.Socket]>;
  const client = net.connect({ port: (listener.address() as net.AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
  const [[server]] = await Promise.all([accepted, once(client, 'connect')]);
  t.teardown(() => {
    client.destroy();
    server.destroy();
    return new Promise<void>((resolve) => listener.close(() => resolve()));
  });
  return { server, client };
}

/** Everything the client reads until the server ends its side. */
function readToEnd(client: net.Socket): Promise<string> {
  let text = '';
  client.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  return once(client, 'end').then(() => text);
}

/** Calls `work` with setTimeout and clearTimeout recorded (and still working); the records. */
function recordingTimers(t: Test) {
  const set: { ms: number | undefined; timer: NodeJS.Timeout; fire: () => void }[] = [];
  const cleared: unknown[] = [];
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  globalThis.setTimeout = ((fn: () => void, ms?: number) => {
    const timer = realSet(fn, ms);
    set.push({ ms, timer, fire: fn });
    return timer;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((timer: NodeJS.Timeout) => {
    cleared.push(timer);
    realClear(timer);
  }) as typeof clearTimeout;
  const restore = () => {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  };
  t.teardown(restore);
  return { set, cleared, restore };
}

t.test('endAndLinger writes the last bytes and ends the connection, without destroying it', async (t) => {
  const { server, client } = await connectedPair(t);
  const read = readToEnd(client);
  endAndLinger(server, 'HTTP/1.1 408 Request Timeout\r\n\r\n');
  t.equal(server.destroyed, false, 'still open: the client may still be sending');
  t.equal(server.writableEnded, true);
  t.equal(await read, 'HTTP/1.1 408 Request Timeout\r\n\r\n', 'the client reads the whole answer, then the end');
  client.write('late bytes of the request');
  await new Promise<void>((resolve) => client.write('', () => resolve()));
  t.equal(client.destroyed, false, 'what the client still sends is no reset');
});

t.test('a client that neither reads nor closes is cut off after 2 s, on a timer that keeps no process alive', async (t) => {
  const { server, client } = await connectedPair(t);
  const timers = recordingTimers(t);
  endAndLinger(server);
  timers.restore();
  t.equal(timers.set.length, 1, 'one timer');
  const [timer] = timers.set;
  t.equal(timer?.ms, 2000);
  t.equal(timer?.timer.hasRef(), false, 'unref: a lingering connection does not hold the process open');
  const closed = once(server, 'close');
  t.equal(server.destroyed, false);
  timer?.fire(); // as the timer would, 2 s later
  t.equal(server.destroyed, true, 'destroyed when the time is up');
  await closed;
  t.equal(client.destroyed, false, 'though the client still holds its side');
});

t.test('when the client closes its side, the connection closes and the timer is cleared', async (t) => {
  const { server, client } = await connectedPair(t);
  const timers = recordingTimers(t);
  endAndLinger(server, 'bye');
  const [timer] = timers.set;
  const closed = once(server, 'close');
  client.on('data', () => {}).end();
  await closed;
  t.ok(timers.cleared.includes(timer?.timer), 'the 2 s timer is cleared');
  t.equal(timer?.timer.hasRef(), false);
});

t.test('lingerAfterAnswer: once the answer is written, the socket is ended and lingers rather than being destroyed', async (t) => {
  const { server, client } = await connectedPair(t);
  const read = readToEnd(client);
  lingerAfterAnswer(server);
  server.write('HTTP/1.1 413 Content Too Large\r\nconnection: close\r\n\r\n');
  const timers = recordingTimers(t);
  server.destroySoon(); // what Node.js calls when an answer that closes its connection ends
  timers.restore();
  t.equal(server.destroyed, false, 'not destroyed at once');
  t.equal(server.writableEnded, true, 'but ended');
  t.strictSame(
    timers.set.map((s) => s.ms),
    [2000],
    'with the linger timer',
  );
  t.equal(await read, 'HTTP/1.1 413 Content Too Large\r\nconnection: close\r\n\r\n', 'the client reads the answer');
  client.write('the rest of a large body');
  await new Promise<void>((resolve) => client.write('', () => resolve()));
  t.equal(client.destroyed, false, 'its body still being sent meets no reset');
});
