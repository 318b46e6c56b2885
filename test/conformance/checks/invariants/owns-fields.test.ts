// invariants.createPet.owns-fields: a NewPet that names an id (an existing
// pet's, by several spellings, or one no pet has) gets an id of the service's
// choosing, or 400, and the pet it named is unchanged. Run here against the
// reference server and against it made to misbehave in one way each, by
// wrapping its store: what the check sends, and what it would miss.
import t, { type Test } from 'tap';
import { runCheck } from '../../../helpers/check-run.js';
import { startTestServer } from '../../../helpers/server.js';

const CHECK = 'invariants.createPet.owns-fields';

type Misbehaviour = (store: { get: (id: bigint) => unknown; create: (pet: unknown) => unknown }, witness: () => bigint | undefined) => void;

/** The check's outcome against the reference server, its store changed by `misbehave`, and the bodies it was sent. */
async function run(t: Test, misbehave?: Misbehaviour) {
  const { server, url, key } = await startTestServer(t);
  // The witness: the first pet the check creates (its name carries owner-).
  let witness: bigint | undefined;
  const store = server.store as unknown as { get: (id: bigint) => unknown; create: (pet: { name: string }) => { ok: boolean; id: bigint; json: Buffer } };
  const create = store.create.bind(store);
  store.create = (pet) => {
    const created = create(pet);
    if (witness === undefined && pet.name.includes('owner-')) witness = created.id;
    return created;
  };
  misbehave?.(store as never, () => witness);
  const bodies: string[] = [];
  server.http.prependListener('request', (req) => {
    if (req.method !== 'POST') return;
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => bodies.push(text));
  });
  const { status, message } = await runCheck(url, key, CHECK, { seed: 5 });
  return { status, message, bodies, witness: witness! };
}

t.test('against the reference server: passes, after sending the witness id as id, as a string, as ID, _id and petId, and an id no pet has', async (t) => {
  const { status, bodies, witness } = await run(t);
  t.equal(status, 'passed');
  const members = bodies.map((b) => JSON.parse(b) as Record<string, unknown>);
  for (const [member, value] of [
    ['id', Number(witness)],
    ['id', String(witness)],
    ['ID', Number(witness)],
    ['_id', Number(witness)],
    ['petId', Number(witness)],
  ] as const)
    t.ok(
      members.some((m) => m[member] === value),
      `${member}: ${JSON.stringify(value)}`,
    );
  t.ok(
    members.some((m) => typeof m['id'] === 'number' && m['id'] > 2 ** 40),
    'an id no pet has',
  );
});

t.test('a server that changes the named pet while it answers 201 with a new id fails', async (t) => {
  const { status, message } = await run(t, (store, witness) => {
    const get = store.get.bind(store);
    const create = store.create.bind(store);
    let after = false;
    store.create = (pet) => {
      const created = create(pet);
      after = witness() !== undefined;
      return created;
    };
    store.get = (id) => {
      const json = get(id) as Buffer | undefined;
      return after && json && id === witness() ? Buffer.from(json.toString().replace(/"name":"[^"]*"/, '"name":"replaced"')) : json;
    };
  });
  t.equal(status, 'failed');
  t.match(message, /changed when another pet was created naming its id: name is now/);
});

t.test('a server that answers the named pet with something other than a Pet afterwards fails', async (t) => {
  const { status, message } = await run(t, (store, witness) => {
    const get = store.get.bind(store);
    store.get = (id) => (id === witness() && witness() !== undefined ? Buffer.from('[]') : get(id));
  });
  t.equal(status, 'failed');
  t.match(message, /the whole body is now \(not a Pet\)/);
});

t.test('a server that answers a create naming an existing pet with that pet fails, though nothing changed', async (t) => {
  const { status, message } = await run(t, (store, witness) => {
    const create = store.create.bind(store);
    const get = store.get.bind(store);
    store.create = (pet) => {
      const w = witness();
      return w === undefined ? create(pet) : { ok: true, id: w, json: get(w) };
    };
  });
  t.equal(status, 'failed');
  t.match(message, /was created with that pet's id/);
});

t.test('a server whose 201 carries the id as a string fails', async (t) => {
  const { status, message } = await run(t, (store, witness) => {
    const create = store.create.bind(store);
    store.create = (pet) => {
      const created = create(pet) as { ok: true; id: bigint; json: Buffer };
      return witness() === undefined || created.id === witness()
        ? created
        : { ...created, json: Buffer.from(created.json.toString().replace(/"id":(\d+)/, '"id":"$1"')) };
    };
  });
  t.equal(status, 'failed');
  t.match(message, /not a Pet with an integer id/);
});
