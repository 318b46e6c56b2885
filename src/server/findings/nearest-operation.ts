/** The operation a request that matched no route most likely meant, for the 404's finding. */
import type { OperationDescriptor } from '../../../spec/operations.js';
import { nearestName } from './nearest.js';

/** The operation whose path is nearest the one sent, as `GET /v1/pets`, when one is close: of the method sent, if the path has it. */
export function nearestOperation(operations: readonly OperationDescriptor[], basePath: string, method: string, path: string): string | undefined {
  const relative = path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
  const sent = relative.split('/');
  const candidates = new Map<string, OperationDescriptor[]>();
  for (const op of operations) {
    // A template's parameters take the segment sent in their place, so /pet/7 is near /pets/{petId}.
    const filled = op.path
      .split('/')
      .map((segment, i) => (segment.startsWith('{') ? (sent[i] ?? segment) : segment))
      .join('/');
    candidates.set(filled, [...(candidates.get(filled) ?? []), op]);
  }
  // Paths of as many segments first: /pet/7 is nearer /pets/{petId} than /pets.
  const keys = [...candidates.keys()];
  const near =
    nearestName(
      relative,
      keys.filter((k) => k.split('/').length === sent.length),
    ) ?? nearestName(relative, keys);
  const ops = near === undefined ? undefined : candidates.get(near);
  const op = ops?.find((o) => o.method === method) ?? ops?.[0];
  return op ? `${op.method} ${basePath}${op.path}` : undefined;
}
