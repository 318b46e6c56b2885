/**
 * What each operation of the spec does. Routing, authentication and
 * parameter validation happen before these run (see `handler.ts`); a handler
 * receives parameters that already satisfy the spec.
 */
import type { PetStatus } from '../../spec/types.js';
import { readNewPet, type Store } from '../store/index.js';
import { readJsonBody } from './body.js';
import type { Limits } from './decisions.js';
import type { ParamValues } from './params.js';
import type { Exchange, Responder } from './respond.js';
import { settle } from './settle.js';

export type OperationHandler = (x: Exchange, params: ParamValues) => void;

export interface OperationDeps {
  readonly store: Store;
  readonly limits: Limits;
  readonly respond: Responder;
}

export function createOperationHandlers({ store, limits, respond }: OperationDeps): Record<string, OperationHandler> {
  const bodyRules = {
    maxBytes: limits.maxBodyBytes,
    parse: { maxDepth: limits.maxJsonDepth, maxMembers: limits.maxJsonMembers },
    expected: 'a NewPet as JSON',
  };

  return {
    listPets(x, params) {
      const limit = Number(params['limit']);
      settle(x, respond, store.list(limit, params['status'] as PetStatus | undefined), (page) => respond.send(x, 200, page));
    },

    getPet(x, params) {
      const id = params['petId'] as bigint;
      settle(x, respond, store.get(id), (json) => {
        if (json === undefined) respond.sendError(x, 'pet_not_found', `no animal has id ${id}`);
        else respond.send(x, 200, json);
      });
    },

    createPet(x) {
      readJsonBody(x, respond, bodyRules, (body) => {
        const newPet = readNewPet(body);
        if (!newPet.ok) return respond.sendError(x, 'invalid_body', newPet.message);
        settle(x, respond, store.create(newPet.pet), (created) => {
          if (!created.ok) return respond.sendError(x, 'storage_full', `the store is full (${store.capacity} animals); nothing was created`);
          respond.send(x, 201, created.json);
        });
      });
    },
  };
}
