// The interface's types (spec/types.ts), derived from spec/openapi.ts with
// json-schema-to-ts: int64 fields are bigint, required fields are required,
// a status is one of the PetStatus enum. Checked by the compiler
// (tsconfig.test.json, in `npm test`); the runtime asserts only count the checks.
import t from 'tap';
import type { ErrorBody, NewPet, Pet, PetStatus, Pets, SchemaType } from '../../spec/types.js';

/** `true` exactly when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

t.test('PetStatus is exactly the enum available, pending, sold', async (t) => {
  const exact: Equal<PetStatus, 'available' | 'pending' | 'sold'> = true;
  const statuses: PetStatus[] = ['available', 'pending', 'sold'];
  // @ts-expect-error a status outside the enum
  const lost: PetStatus = 'lost';
  // @ts-expect-error the enum is case-sensitive
  const upper: PetStatus = 'Available';
  t.ok(exact);
  t.equal(statuses.length, 3);
  t.ok(lost && upper);
});

t.test('a Pet has an int64 id and categoryId as bigint, a name, and an optional status', async (t) => {
  const idIsBigint: Equal<Pet['id'], bigint> = true;
  const categoryIsBigint: Equal<Pet['categoryId'], bigint> = true;
  const nameIsString: Equal<Pet['name'], string> = true;
  const statusIsOptional: Equal<Pet['status'], PetStatus | undefined> = true;
  const rex: Pet = { id: 9007199254740993n, name: 'Rex', categoryId: 1n, status: 'available' };
  const tom: Pet = { id: 2n, name: 'Tom', categoryId: 2n };
  // @ts-expect-error a Pet without id
  const noId: Pet = { name: 'Rex', categoryId: 1n };
  // @ts-expect-error a Pet without name
  const noName: Pet = { id: 1n, categoryId: 1n };
  // @ts-expect-error an int64 id is a bigint, not a number (which cannot hold every int64)
  const numberId: Pet = { id: 1, name: 'Rex', categoryId: 1n };
  // @ts-expect-error a status outside the enum
  const badStatus: Pet = { id: 1n, name: 'Rex', categoryId: 1n, status: 'lost' };
  // @ts-expect-error a name is a string
  const numberName: Pet = { id: 1n, name: 7, categoryId: 1n };
  t.ok(idIsBigint && categoryIsBigint && nameIsString && statusIsOptional);
  t.equal(rex.id, 9007199254740993n, 'the id keeps every digit');
  t.equal(tom.status, undefined);
  t.ok(noId && noName && numberId && badStatus && numberName);
});

t.test('a NewPet needs a name and a categoryId, and has no id of its own to require', async (t) => {
  const rex: NewPet = { name: 'Rex', categoryId: 1n };
  const withStatus: NewPet = { name: 'Rex', categoryId: 1n, status: 'pending' };
  // @ts-expect-error a NewPet without categoryId
  const noCategory: NewPet = { name: 'Rex' };
  // @ts-expect-error categoryId is an int64: a bigint
  const numberCategory: NewPet = { name: 'Rex', categoryId: 1 };
  const categoryIsBigint: Equal<NewPet['categoryId'], bigint> = true;
  t.ok(categoryIsBigint);
  t.equal(rex.categoryId, 1n);
  t.equal(withStatus.status, 'pending');
  t.ok(noCategory && numberCategory);
});

t.test('Pets is an array of Pet', async (t) => {
  const isArray: Equal<Pets, Pet[]> = true;
  const pets: Pets = [{ id: 1n, name: 'Rex', categoryId: 1n }];
  // @ts-expect-error every element is a Pet (here without id)
  const bad: Pets = [{ name: 'Rex', categoryId: 1n }];
  t.ok(isArray);
  t.equal(pets.length, 1);
  t.ok(bad);
});

t.test('an Error body has a code, a message and a numeric status', async (t) => {
  const body: ErrorBody = { code: 'unauthorized', message: 'Missing or invalid API key', status: 401 };
  const statusIsNumber: Equal<ErrorBody['status'], number> = true;
  // @ts-expect-error an Error without message
  const noMessage: ErrorBody = { code: 'unauthorized', status: 401 };
  // @ts-expect-error status is an integer, not a string
  const textStatus: ErrorBody = { code: 'unauthorized', message: 'm', status: '401' };
  t.ok(statusIsNumber);
  t.equal(body.status, 401);
  t.ok(noMessage && textStatus);
});

t.test('SchemaType names the same types by schema name', async (t) => {
  const samePet: Equal<SchemaType<'Pet'>, Pet> = true;
  const sameStatus: Equal<SchemaType<'PetStatus'>, PetStatus> = true;
  // @ts-expect-error only the document's schemas have a type
  type Missing = SchemaType<'Dog'>;
  const missing: Missing | undefined = undefined;
  t.ok(samePet && sameStatus);
  t.equal(missing, undefined);
});
