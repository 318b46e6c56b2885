/**
 * The warnings of a name the operation does not have, which the server
 * ignores (D3, D4): a query parameter, a body field. Each says the nearest
 * known name, when one is close: most are typos.
 */
import type { OperationDescriptor } from '../../../spec/operations.js';
import type { FindingDraft } from './finding.js';
import { nearestName } from './nearest.js';
import { bodyFieldRule, operationRule, seedSection } from './pointers.js';
import { shownValue } from './shown.js';

/** A query parameter the operation does not have; `shown` makes a text from the request safe to show. */
export function unknownQueryDraft(op: OperationDescriptor, name: string, value: string, shown: (text: string) => string): FindingDraft {
  const known = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const near = nearestName(name, known);
  const shownName = shown(name);
  return {
    code: 'unknown_query_parameter',
    severity: 'warning',
    rule: `${operationRule(op)}/parameters`,
    subject: shownName,
    seed: seedSection(op),
    operationId: op.operationId,
    sent: shown(value === '' ? name : `${name}=${value}`),
    expected: known.length === 0 ? `${op.operationId} takes no query parameters` : `${known.join(' or ')}${near ? `; did you mean ${near}?` : ''}`,
    message: `${op.operationId} has no query parameter ${shownName}: it was ignored${near ? ` (did you mean ${near}?)` : ''}, so the answer is not filtered or limited by it`,
    hint: `${op.operationId} has no query parameter ${shownName}: ${near ? `did you mean ${near}?` : 'it was ignored'}`,
  };
}

/** A body field the schema does not declare, sent with the value `valueJson`. */
export function unknownFieldDraft(
  op: OperationDescriptor,
  name: string,
  valueJson: string,
  shown: (text: string) => string,
  redact: (text: string) => string,
): FindingDraft {
  const schema = op.requestBody?.schema;
  const known = Object.keys((schema?.['properties'] ?? {}) as object);
  const near = nearestName(name, known);
  const shownName = shown(name);
  return {
    code: 'unknown_body_field',
    severity: 'warning',
    rule: bodyFieldRule(op, undefined, 'unknown'),
    subject: shownName,
    seed: `§2 Resources (NewPet), ${seedSection(op)}`,
    operationId: op.operationId,
    sent: `${shownName}: ${shownValue(valueJson, redact)}`,
    expected: `only ${known.join(', ')}${near ? `; did you mean ${near}?` : ''}`,
    message: `the body field ${shownName} is not part of the interface: it was ignored and not stored${near ? ` (did you mean ${near}?)` : ''}`,
    hint: `the body has no field ${shownName}: ${near ? `did you mean ${near}?` : 'it was ignored'}`,
  };
}
