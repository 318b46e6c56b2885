/**
 * How the run reached its target, in one line that every report format
 * carries: a run through a proxy, with another CA or without verifying
 * certificates tested something other than a direct, verified connection,
 * and whoever reads the report must see that.
 */
import type { ConnectionFacts } from '../vocabulary.js';

export function describeConnection(connection: ConnectionFacts | undefined): string | undefined {
  if (!connection) return undefined;
  const parts = [
    connection.insecure ? 'TLS certificates NOT verified (--insecure)' : undefined,
    connection.proxy ? `through the proxy ${connection.proxy}` : undefined,
    connection.extraCa ? 'an extra CA trusted (--ca)' : undefined,
    connection.clientCertificate ? 'a client certificate presented (--cert)' : undefined,
    connection.headers?.length ? `extra fields on every request: ${connection.headers.join(', ')} (--header)` : undefined,
  ].filter((part): part is string => part !== undefined);
  return parts.length ? parts.join('; ') : undefined;
}
