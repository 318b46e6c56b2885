/**
 * Signalling a deprecated operation: `Deprecation` (RFC 9745, a structured
 * field date `@<unix seconds>`, not the obsolete `true`), `Sunset` (RFC 8594,
 * an HTTP-date) and a `Link` to the replacement (rel="successor-version",
 * RFC 5829).
 */
import type { OperationDescriptor } from '../../spec/operations.js';
import type { HeaderList } from './headers.js';

export function deprecationHeaders(
  operation: OperationDescriptor,
  all: readonly OperationDescriptor[],
  basePath: string,
  deprecatedSince: Date,
): HeaderList | undefined {
  if (!operation.deprecated) return undefined;
  const headers = ['deprecation', `@${Math.floor(deprecatedSince.getTime() / 1000)}`];
  if (operation.sunset) headers.push('sunset', operation.sunset.toUTCString());
  const replacement = all.find((op) => op.operationId === operation.replacement);
  if (replacement) headers.push('link', `<${basePath}${replacement.path}>; rel="successor-version"`);
  return headers;
}
