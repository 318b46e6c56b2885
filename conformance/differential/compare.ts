/**
 * One request, two answers: the target's and the oracle's (the reference
 * server, or a second live target). The pair is abstracted into what a client
 * acts on (differential/outcome.ts), and a difference is a failure unless a
 * `same-outcome` row of the tolerance table allows it. Only differences the
 * seed leaves no room for are looked for:
 * - the oracle refused for the credential and the target served pet data, or
 *   accepted a write, to a request in which the key appears nowhere;
 * - the oracle served and the target refused the valid key, sent exactly as
 *   the interface takes it;
 * - the oracle served and the target refused or found nothing;
 * - the oracle refused a write and the target accepted it.
 */
import type { OperationDescriptor } from '../../spec/operations.js';
import type { Exchange, WireResponse } from '../client.js';
import { toleranceFor, type Pair, type Tolerance } from '../tolerances.js';
import type { DifferenceKind, PairFacts } from '../vocabulary.js';

export type { PairFacts };
import { exactCredential, isWrite, keyAppears, outcomeOf, servesPetData } from './outcome.js';

/** A difference outside the table, or the row that allowed it. */
export type Verdict = { readonly difference: DifferenceKind; readonly message: string } | { readonly tolerated: Tolerance };

/** The difference between the two answers, if it is one the comparison looks for. */
export function differenceOf(exchange: Exchange, oracle: WireResponse, facts: PairFacts): { kind: DifferenceKind; message: string } | undefined {
  const { request, response } = exchange;
  const mine = outcomeOf(response);
  const theirs = outcomeOf(oracle);
  const said = `${request.method} ${request.path} was answered ${response.status} by the target and ${oracle.status} by the oracle`;
  if (theirs === 'refused-credential' && (servesPetData(response) || (isWrite(request) && mine === 'served')) && !keyAppears(request, facts.apiKey))
    return {
      kind: 'served-without-key',
      message: `${said}: the target ${isWrite(request) ? 'accepted a write' : 'served pet data'} to a request that carries no form of the key`,
    };
  if (theirs === 'served' && response.status === 401 && exactCredential(request, facts.authorization))
    return { kind: 'valid-key-refused', message: `${said}: the target refused the valid key, sent as Authorization: Bearer <key>` };
  if (theirs === 'served' && (mine === 'refused' || mine === 'missing'))
    return { kind: 'accepted-refused', message: `${said}: the oracle served it and the target ${mine === 'missing' ? 'found nothing' : 'refused it'}` };
  if (theirs === 'refused' && mine === 'served' && isWrite(request))
    return { kind: 'refused-accepted', message: `${said}: the oracle refused the write and the target accepted it` };
  return undefined;
}

/** The verdict on a pair under `table`: undefined when the answers agree on what the comparison looks at. */
export function judgePair(
  exchange: Exchange,
  oracle: WireResponse,
  facts: PairFacts,
  table: readonly Tolerance[],
  operations: readonly OperationDescriptor[],
): Verdict | undefined {
  const difference = differenceOf(exchange, oracle, facts);
  if (!difference) return undefined;
  const pair: Pair = { kind: difference.kind, oracle, op: facts.op, lagging: facts.lagging };
  const row = toleranceFor(table, 'same-outcome', exchange, operations, pair);
  return row ? { tolerated: row } : { difference: difference.kind, message: difference.message };
}
