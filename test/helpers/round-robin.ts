/**
 * A round-robin HTTP proxy made in the test: one address in front of several
 * instances, each request to the next instance in turn, as a load balancer
 * does. The request goes on as it came (method, target, header fields in
 * their order, repeated ones too, body streamed) and the answer comes back
 * the same way.
 */
import http from 'node:http';
import type { Test } from 'tap';

export interface RoundRobin {
  /** The proxy's origin, such as `http://127.0.0.1:54321`. */
  readonly origin: string;
  /** How many requests each upstream got, in the order given. */
  readonly counts: number[];
}

export async function startRoundRobin(t: Test, upstreams: readonly string[]): Promise<RoundRobin> {
  const targets = upstreams.map((u) => new URL(u));
  const counts = targets.map(() => 0);
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  const proxy = http.createServer((req, res) => {
    const index = next++ % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = targets[index] as URL;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.rawHeaders, agent, setHost: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream failed');
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  );
  const address = proxy.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, counts };
}
