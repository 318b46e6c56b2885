/**
 * What each operation of the spec does. Routing, authentication and
 * parameter validation happen before these run (see `handler.ts`); a handler
 * receives parameters that already satisfy the spec.
 */
import type { PetStatus } from '../../spec/types.js';
import { componentSchema } from '../../spec/operations.js';
import { stringifyJson, type JsonValue } from '../../spec/json/index.js';
import { isObject } from '../../spec/json/is-object.js';
import { readNewPet, type Maybe, type Store } from '../store/index.js';
import { readJsonBody } from './request-body.js';
import type { Limits } from './decisions.js';
import type { ParamValues } from './params.js';
import type { Exchange, Responder } from './respond.js';
import { withStoreAnswer } from './store-answer.js';
import type { FindingDetector } from './findings/detect.js';
import { findGiven, roundingCandidates } from './findings/rounding.js';
import { STUB_HEADER, type StubTable } from './control/stubs.js';
import { JSON_CONTENT_TYPE } from './respond.js';
import type { ErrorCode } from './errors.js';

/** The fields of a NewPet: any other is unknown to the interface. */
const petFields = Object.keys(componentSchema('NewPet')['properties'] as object);

/** Whether a store's answer to get() is a pet, now or later. */
function isGiven(answer: Maybe<Buffer | undefined>): Maybe<boolean> {
  return answer instanceof Promise ? answer.then((json) => json !== undefined) : answer !== undefined;
}

export type OperationHandler = (x: Exchange, params: ParamValues) => void;

export interface OperationDeps {
  readonly store: Store;
  readonly limits: Limits;
  readonly respond: Responder;
  /** Checks against the spec (findings), when they are on. */
  readonly findings?: FindingDetector;
  /** The interface's base path, for the Location of a created pet. */
  readonly basePath: string;
  /** Answers set in advance (control/stubs.ts), which take the store's place. */
  readonly stubs?: StubTable;
  /** In front of another implementation (relay.ts): what passed the checks is passed on to it instead of the store. */
  readonly forward?: (x: Exchange) => void;
}

export function createOperationHandlers({ store, limits, respond, findings, basePath, stubs, forward }: OperationDeps): Record<string, OperationHandler> {
  /**
   * Answers with the stub of `operationId` if one is set, once everything the
   * client sent has been checked and before the store is asked; false when none is.
   */
  const stubbed = (x: Exchange, operationId: string): boolean => {
    const stub = stubs?.active ? stubs.take(operationId) : undefined;
    if (stub === undefined) return false;
    x.headers = [...(x.headers ?? []), STUB_HEADER, 'true'];
    // Not send(x, …, code): a stubbed Error is the test's doing, no finding against the client.
    respond.answer(x, stub.status, JSON_CONTENT_TYPE, stub.body, stub.headers, stub.code as ErrorCode | undefined);
    return true;
  };

  // RFC 9110 §15.3.2: without Location, the resource a 201 created is identified as the target URI (/pets) (D25).
  const petsPath = `${basePath}/pets/`;
  const bodyRules = {
    maxBytes: limits.maxBodyBytes,
    parse: { maxDepth: limits.maxJsonDepth, maxMembers: limits.maxJsonMembers },
    expected: 'a NewPet as JSON',
    // A relay passes an overlong body on whole (its finding noted), so its rest is kept, not discarded.
    keepRest: forward !== undefined,
  };

  return {
    listPets(x, params) {
      if (stubbed(x, 'listPets')) return;
      if (forward) return forward(x);
      // Present whenever the spec has it (its default fills it in); a spec without a page size pages nothing away.
      const limit = params['limit'] === undefined ? Number.MAX_SAFE_INTEGER : Number(params['limit']);
      const page = store.list(limit, params['status'] as PetStatus | undefined);
      // In memory the page is at hand: answered without a closure made for it.
      if (!(page instanceof Promise)) return respond.send(x, 200, page);
      withStoreAnswer(x, respond, page, (page) => respond.send(x, 200, page));
    },

    getPet(x, params) {
      if (stubbed(x, 'getPet')) return;
      if (forward) return forward(x);
      const id = params['petId'] as bigint;
      const pet = store.get(id);
      if (pet !== undefined && !(pet instanceof Promise)) return respond.send(x, 200, pet);
      withStoreAnswer(x, respond, pet, (json) => {
        if (json !== undefined) return respond.send(x, 200, json);
        const notFound = () => respond.sendError(x, 'pet_not_found', `no animal has id ${id}`);
        const candidates = findings ? roundingCandidates(id) : [];
        if (candidates.length === 0) return notFound();
        // An id the client may have rounded: its finding names the id it was given.
        findGiven(
          candidates,
          (candidate) => isGiven(store.get(candidate)),
          (given) => {
            if (given !== undefined) x.culprit = { name: String(given) };
            notFound();
          },
        );
      });
    },

    createPet(x) {
      readJsonBody(x, respond, bodyRules, (body) => {
        if (findings && x.operation && isObject(body)) {
          // Unknown fields are ignored (D4); the client is told of each, a rare path: most bodies have none.
          for (const name in body) if (!petFields.includes(name)) findings.unknownField(x, x.operation, name, stringifyJson(body[name] as JsonValue));
        }
        const newPet = readNewPet(body);
        if (!newPet.ok) {
          const top = newPet.field.split(/[.[]/)[0] as string;
          const sent =
            isObject(body) && top !== '' && body[top] !== undefined ? stringifyJson(body[top] as JsonValue) : top === '' ? stringifyJson(body) : undefined;
          x.culprit = sent === undefined ? { name: newPet.field } : { name: newPet.field, sent };
          return respond.sendError(x, 'invalid_body', newPet.message);
        }
        if (stubbed(x, 'createPet')) return;
        if (forward) return forward(x);
        withStoreAnswer(x, respond, store.create(newPet.pet), (created) => {
          if (!created.ok) return respond.sendError(x, 'storage_full', `the store is full (${store.capacity} animals); nothing was created`);
          respond.send(x, 201, created.json, ['location', petsPath + created.id]);
        });
      });
    },
  };
}
