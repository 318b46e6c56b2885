/**
 * Types of the interface, derived from `spec/openapi.ts` with json-schema-to-ts.
 * Nothing here restates a field: change a schema and these types change with it.
 *
 * int64 fields are `bigint`: a JavaScript number cannot hold every int64
 * (9007199254740993 becomes 9007199254740992), and both halves of the project
 * carry ids and categoryIds exactly (see `spec/json`).
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { openapi } from './openapi.js';

type Schemas = typeof openapi.components.schemas;

/** Replaces every `{ $ref: '#/components/schemas/X' }` with the schema X, recursively. */
export type Deref<S> = S extends { readonly $ref: `#/components/schemas/${infer N extends keyof Schemas & string}` }
  ? Deref<Schemas[N]>
  : S extends readonly unknown[]
    ? { readonly [K in keyof S]: Deref<S[K]> }
    : S extends object
      ? { readonly [K in keyof S]: Deref<S[K]> }
      : S;

type Lossless = { deserialize: [{ pattern: { type: 'integer'; format: 'int64' }; output: bigint }] };

export type SchemaType<N extends keyof Schemas> = FromSchema<Deref<Schemas[N]>, Lossless>;

export type PetStatus = SchemaType<'PetStatus'>;
export type NewPet = SchemaType<'NewPet'>;
export type Pet = SchemaType<'Pet'>;
export type Pets = SchemaType<'Pets'>;
export type ErrorBody = SchemaType<'Error'>;
