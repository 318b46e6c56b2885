/**
 * Closing a connection without cutting off the answer on it (RFC 9112 §9.6:
 * a server that closes while the client may still be sending risks a reset
 * that destroys the answer before the client has read it).
 */
import type { Socket } from 'node:net';

/** How long a connection answered and ended by the server waits for the client to close its side. */
const LINGER_MS = 2_000;

/**
 * Ends the connection after `last`. An HTTP server's sockets allow half-open
 * connections, so an ended socket stays open until the client closes its
 * side; a client that neither reads nor closes (a slowloris after its 408)
 * would hold it, and a place under maxConnections, for ever. It is destroyed
 * after LINGER_MS; not at once, since closing while the client's bytes are
 * still arriving sends a reset that can destroy the answer before it is read.
 */
export function endAndLinger(socket: Socket, last = ''): void {
  socket.end(last);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * For an answer given before the request's body was read (413) on a
 * connection that then closes: Node would destroy the socket as soon as the
 * answer is written, and a client still writing its body would get a reset
 * (EPIPE) instead of the answer. The socket is ended instead, and destroyed
 * only after LINGER_MS; what the client still sends meanwhile waits unread
 * (never parsed as another request) while it reads the answer.
 */
export function lingerAfterAnswer(socket: Socket): void {
  socket.destroySoon = () => endAndLinger(socket);
}
