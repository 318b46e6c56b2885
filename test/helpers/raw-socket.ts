/**
 * Bytes on a plain TCP socket, for what an HTTP client library will not send:
 * garbage request lines, bodies sent in parts with pauses in between.
 */
import net from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

/** Connects to the host and port of `url`. */
export function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
export function readAll(socket: net.Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Sends `bytes` on a new connection and returns all the server answers. */
export async function rawExchange(url: string, bytes: string | Buffer): Promise<string> {
  const socket = await connect(url);
  const all = readAll(socket);
  socket.write(bytes);
  return all;
}

/** Splits one HTTP/1.1 response (with Content-Length) into status, headers and body. */
export function parseRawResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`not an HTTP response: ${JSON.stringify(raw.slice(0, 100))}`);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  return {
    status,
    headers,
    text: Buffer.from(raw.slice(end + 4))
      .subarray(0, length)
      .toString('utf8'),
  };
}
