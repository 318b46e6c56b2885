// PetstoreServer.close(): stop accepting, let requests in flight finish, and
// end without waiting out keep-alive connections.
import t from 'tap';
import { request } from 'undici';
import { createServer } from '../../../src/server/index.js';
import { connect, parseRawResponse, readAll } from '../../helpers/raw-socket.js';

const KEY = 'petstore-dev-key';

t.test('close() lets a request in flight finish, answers it Connection: close, and ends without waiting out the grace period', async (t) => {
  const server = createServer();
  const url = await server.listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  const { host, pathname } = new URL(url);
  const body = '{"name":"Slow","categoryId":7}';
  const socket = await connect(url);
  const answer = readAll(socket);
  socket.write(
    `POST ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));

  const started = Date.now();
  const closed = server.close(5_000);
  socket.write(body.slice(10));
  const r = parseRawResponse(await answer);
  t.equal(r.status, 201, 'the request in flight is answered');
  t.equal(r.headers['connection'], 'close', 'and told that the connection ends');
  await closed;
  t.ok(Date.now() - started < 2_000, `close() resolved after ${Date.now() - started} ms, not after the 5 s grace period`);
});

t.test('close() does not wait for idle keep-alive connections', async (t) => {
  const server = createServer();
  const url = await server.listen(0, '127.0.0.1');
  const res = await request(`${url}/pets`, { headers: { authorization: `Bearer ${KEY}` } });
  await res.body.text(); // the connection stays open, idle, in undici's pool
  const started = Date.now();
  await server.close(5_000);
  t.ok(Date.now() - started < 2_000, `close() resolved after ${Date.now() - started} ms`);
});

t.test('close() cuts a request that does not finish within the grace period', async (t) => {
  const server = createServer();
  const url = await server.listen(0, '127.0.0.1');
  const { host, pathname } = new URL(url);
  const socket = await connect(url);
  const answer = readAll(socket);
  socket.write(
    `POST ${pathname}/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  await server.close(300);
  t.ok(Date.now() - started >= 250, 'it waited for the grace period');
  t.equal(await answer, '', 'the connection was cut without an answer');
});
