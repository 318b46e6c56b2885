/**
 * What each operation of the spec does. Routing, authentication and
 * parameter validation happen before these run (see `handler.ts`); a handler
 * receives parameters that already satisfy the spec.
 */
import type { PetStatus } from '../../spec/types.js';
import { parseJsonBytes } from '../json/index.js';
import { readNewPet, type PetStore } from '../store/index.js';
import { hasBody, isJsonContentType, readBody } from './body.js';
import type { Limits } from './decisions.js';
import type { ParamValues } from './params.js';
import type { Exchange, Responder } from './respond.js';

export type OperationHandler = (x: Exchange, params: ParamValues) => void | Promise<void>;

export interface OperationDeps {
  readonly store: PetStore;
  readonly limits: Limits;
  readonly respond: Responder;
}

export function createOperationHandlers({ store, limits, respond }: OperationDeps): Record<string, OperationHandler> {
  const parseLimits = { maxDepth: limits.maxJsonDepth, maxMembers: limits.maxJsonMembers };

  return {
    listPets(x, params) {
      const limit = Number(params['limit']);
      respond.send(x, 200, store.list(limit, params['status'] as PetStatus | undefined));
    },

    getPet(x, params) {
      const id = params['petId'] as bigint;
      const json = store.get(id);
      if (json === undefined) respond.sendError(x, 'pet_not_found', `no animal has id ${id}`);
      else respond.send(x, 200, json);
    },

    async createPet(x) {
      const { req } = x;
      if (!hasBody(req)) return respond.sendError(x, 'invalid_body', 'a request body is required: a NewPet as JSON');
      if (!isJsonContentType(req.headers['content-type'])) {
        return respond.sendError(
          x,
          'unsupported_media_type',
          `the body must be sent as application/json, not ${req.headers['content-type'] ?? 'without a Content-Type'}`,
        );
      }
      // RFC 9110 §8.4.1: a content coding the server does not support is a 415, not a body to misread.
      const coding = req.headers['content-encoding']?.trim().toLowerCase();
      if (coding && coding !== 'identity') {
        return respond.sendError(x, 'unsupported_media_type', `Content-Encoding ${coding} is not supported: send the JSON as it is`);
      }
      const body = await readBody(req, limits.maxBodyBytes);
      if (!body.ok) {
        if (body.reason === 'aborted') return;
        // The rest of the body is not read, so the connection cannot be reused.
        return respond.sendError(x, 'payload_too_large', `the body is larger than ${limits.maxBodyBytes} bytes`, { connection: 'close' });
      }
      const parsed = parseJsonBytes(body.bytes, parseLimits);
      if (!parsed.ok) return respond.sendError(x, 'malformed_json', parsed.message);
      const newPet = readNewPet(parsed.value);
      if (!newPet.ok) return respond.sendError(x, 'invalid_body', newPet.message);
      const created = store.create(newPet.pet);
      if (!created.ok) return respond.sendError(x, 'storage_full', `the store is full (${store.capacity} animals); nothing was created`);
      respond.send(x, 201, created.json);
    },
  };
}
