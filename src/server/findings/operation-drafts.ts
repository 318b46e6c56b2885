/**
 * The drafts of a deprecated operation, which never vary: the warning of a
 * call before its sunset and the refusal (410) of one after it. Made once per
 * server, so that every call of a deprecated operation reuses them.
 */
import type { OperationDescriptor } from '../../../spec/operations.js';
import { statusOf } from '../errors.js';
import type { FindingDraft } from './finding.js';
import { operationRule, seedSection } from './pointers.js';

export interface OperationDrafts {
  deprecated?: FindingDraft;
  gone?: FindingDraft;
}

/** The drafts of every operation, by operation (none for one that is not deprecated). */
export function prepareOperationDrafts(operations: readonly OperationDescriptor[], basePath: string): Map<OperationDescriptor, OperationDrafts> {
  const perOperation = new Map<OperationDescriptor, OperationDrafts>();
  for (const op of operations) perOperation.set(op, operationDrafts(op, operations, basePath));
  return perOperation;
}

/** The drafts of an operation that never vary. */
function operationDrafts(op: OperationDescriptor, operations: readonly OperationDescriptor[], basePath: string): OperationDrafts {
  if (!op.deprecated) return {};
  const replacement = operations.find((other) => other.operationId === op.replacement);
  const instead = replacement
    ? `${replacement.method} ${basePath}${replacement.path}${replacement.parameters.some((p) => p.name === 'status') ? '?status=…' : ''} (${replacement.operationId})`
    : 'another operation';
  const sunset = op.sunset ? ` on ${op.sunset.toUTCString().replace(' 00:00:00 GMT', '')}` : '';
  const base = { rule: operationRule(op), subject: '', seed: `${seedSection(op)}, §9 Versioning`, operationId: op.operationId };
  return {
    deprecated: {
      ...base,
      rule: `${operationRule(op)}/deprecated`,
      code: 'deprecated_operation',
      severity: 'warning',
      sent: `${op.method} ${basePath}${op.path}`,
      expected: instead,
      message: `${op.operationId} is deprecated and will answer 410 Gone from its sunset${sunset}: move to ${instead}`,
    },
    ...(op.sunset
      ? {
          gone: {
            ...base,
            rule: `${operationRule(op)}/x-sunset`,
            code: 'gone',
            severity: 'error',
            status: statusOf('gone'),
            sent: `${op.method} ${basePath}${op.path}`,
            expected: instead,
            message: `${op.operationId} was removed${sunset} (its sunset): use ${instead}`,
          },
        }
      : {}),
  };
}
