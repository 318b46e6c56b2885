/**
 * The reference server's control API: not part of the Pet Store interface,
 * served under `/__control` beside it, for client developers who use the
 * server as their stand-in backend. Guarded by the same API keys.
 *
 * Its request bodies are validated from this document, as the interface's are
 * from `openapi.ts`; NewPet and PetStatus are the interface's own schemas.
 */
import { openapi } from './openapi.js';

const json = (schema: object) => ({ 'application/json': { schema } });
const error = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) });
/** With a shared store (`--store redis://…`), what a control call needs of it may be away. */
const storeAway = error('The shared store (--store redis://…) cannot answer now: store_unavailable, with Retry-After');

/** The `since` query parameter: a request id, as POST /mark answers it. */
const since = (description: string) => ({ name: 'since', in: 'query', required: false, description, schema: { type: 'integer', minimum: 1 } }) as const;

export const controlOpenapi = {
  openapi: '3.1.0',
  info: {
    title: 'petstore-harness control API',
    version: '1.0.0',
    description:
      'Reset, load and read the state of the reference server, move its clock, inject faults per operation, read the request journal and the findings (what clients got wrong). ' +
      'Disabled with `petstore serve --no-control`.',
  },
  servers: [{ url: 'http://127.0.0.1:4010/__control' }],
  security: [{ bearerAuth: [] }],
  paths: {
    '/openapi.json': {
      get: {
        operationId: 'readControlSpec',
        summary: 'This document',
        responses: {
          '200': { description: 'The OpenAPI document of the control API', content: json({ type: 'object' }) },
          '401': error('Missing or invalid API key'),
        },
      },
    },
    '/state': {
      get: {
        operationId: 'readState',
        summary: 'The whole state: every pet, the clock, the faults, the journal size',
        responses: {
          '200': { description: 'The state', content: json({ $ref: '#/components/schemas/State' }) },
          '401': error('Missing or invalid API key'),
          '503': storeAway,
        },
      },
    },
    '/reset': {
      post: {
        operationId: 'reset',
        summary:
          'Back to the seed: pets created since start are forgotten, ids go on after the seed (sequential modes); faults, journal and findings are cleared (the clock is not: see PUT /clock)',
        responses: {
          '200': { description: 'The state after the reset', content: json({ $ref: '#/components/schemas/Summary' }) },
          '401': error('Missing or invalid API key'),
          '503': storeAway,
        },
      },
    },
    '/pets': {
      post: {
        operationId: 'loadPets',
        summary: 'Create many pets at once, in order (the interface has no bulk operation)',
        requestBody: { required: true, content: json({ type: 'array', items: { $ref: '#/components/schemas/NewPet' }, maxItems: 100000 }) },
        responses: {
          '201': { description: 'How many were created and their ids', content: json({ $ref: '#/components/schemas/Loaded' }) },
          '400': error('The body is not an array of NewPet'),
          '401': error('Missing or invalid API key'),
          '503': storeAway,
          '507': error('The store would be over --max-pets; nothing was created'),
        },
      },
    },
    '/clock': {
      put: {
        operationId: 'setClock',
        summary: "Move the server clock (it then runs at real speed); `null` goes back to the machine's time",
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/ClockSetting' }) },
        responses: {
          '200': { description: 'The new clock', content: json({ $ref: '#/components/schemas/Summary' }) },
          '400': error('Not an ISO 8601 instant'),
          '401': error('Missing or invalid API key'),
          '503': storeAway,
        },
      },
    },
    '/faults': {
      get: {
        operationId: 'listFaults',
        summary: 'The faults in force, by operationId',
        responses: {
          '200': { description: 'Faults by operationId', content: json({ type: 'object', additionalProperties: { $ref: '#/components/schemas/Fault' } }) },
          '401': error('Missing or invalid API key'),
        },
      },
      delete: {
        operationId: 'clearFaults',
        summary: 'Remove every fault',
        responses: { '204': { description: 'No faults remain' }, '401': error('Missing or invalid API key'), '503': storeAway },
      },
    },
    '/faults/{operationId}': {
      put: {
        operationId: 'setFault',
        summary: 'Inject a fault into one operation of the interface (listPets, createPet, getPet)',
        parameters: [{ name: 'operationId', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Fault' }) },
        responses: {
          '200': { description: 'The fault now in force', content: json({ $ref: '#/components/schemas/Fault' }) },
          '400': error('Not a valid fault'),
          '401': error('Missing or invalid API key'),
          '503': storeAway,
          '404': error('No such operation'),
        },
      },
      delete: {
        operationId: 'clearFault',
        summary: 'Remove the fault of one operation',
        parameters: [{ name: 'operationId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '204': { description: 'Removed' },
          '401': error('Missing or invalid API key'),
          '503': storeAway,
          '404': error('No fault on that operation'),
        },
      },
    },
    '/findings': {
      get: {
        operationId: 'readFindings',
        parameters: [since('Only findings last seen in this request or a later one; after POST /mark, `count` counts since that mark')],
        summary:
          'What clients of the interface got wrong or rely on without its promise, counted per rule, in the order first seen: errors (refused requests) and warnings (served, but not promised: unknown parameters or fields, the deprecated getPet, a rounded int64 id, a key in another form)',
        responses: {
          '200': { description: 'Findings, oldest first', content: json({ type: 'array', items: { $ref: '#/components/schemas/Finding' } }) },
          '401': error('Missing or invalid API key'),
        },
      },
      delete: {
        operationId: 'clearFindings',
        summary: 'Forget every finding (a reset does too)',
        responses: { '204': { description: 'Forgotten' }, '401': error('Missing or invalid API key'), '503': storeAway },
      },
    },
    '/shutdown': {
      post: {
        operationId: 'shutdown',
        summary:
          'Stop the server as SIGTERM does, with the same verdict: the answer lists the findings; then the server stops accepting, lets the requests in flight finish, and `petstore serve` writes --findings and --state and exits with its --fail-on-findings code (a server created in process closes)',
        responses: {
          '202': {
            description: 'Stopping; the findings so far, oldest first',
            content: json({ type: 'array', items: { $ref: '#/components/schemas/Finding' } }),
          },
          '401': error('Missing or invalid API key'),
        },
      },
    },
    '/journal.har': {
      get: {
        operationId: 'readJournalHar',
        summary: 'The journal as HAR 1.2, for browser developer tools (Network: Import HAR) and HTTP clients; credentials redacted as in the journal',
        parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100000 } }],
        responses: {
          '200': { description: 'A HAR 1.2 log, oldest entry first', content: json({ $ref: '#/components/schemas/Har' }) },
          '401': error('Missing or invalid API key'),
        },
      },
    },
    '/journal': {
      get: {
        operationId: 'readJournal',
        summary: "The latest requests to the interface, oldest first, with both sides' headers and bodies (credentials redacted, bodies cut after 16 KiB)",
        parameters: [
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100000 } },
          { name: 'operation', in: 'query', required: false, schema: { type: 'string' }, description: 'Only requests routed to this operationId' },
          since('Only requests with this id or a later one (POST /mark)'),
        ],
        responses: {
          '200': { description: 'Journal entries', content: json({ type: 'array', items: { $ref: '#/components/schemas/JournalEntry' } }) },
          '401': error('Missing or invalid API key'),
        },
      },
      delete: {
        operationId: 'clearJournal',
        summary: 'Empty the journal',
        responses: { '204': { description: 'Emptied' }, '401': error('Missing or invalid API key'), '503': storeAway },
      },
    },
    '/mark': {
      post: {
        operationId: 'mark',
        summary:
          'The id the next request to the interface will get, for `since` (ids only grow, a reset included): what one test sent and got wrong, on a server tests share; findings are counted from here',
        responses: {
          '200': { description: 'The mark', content: json({ type: 'object', required: ['since'], properties: { since: { type: 'integer', minimum: 1 } } }) },
          '401': error('Missing or invalid API key'),
        },
      },
    },
    '/stubs': {
      get: {
        operationId: 'listStubs',
        summary: 'The stubs set, in the order they answer',
        responses: {
          '200': { description: 'Stubs', content: json({ type: 'array', items: { $ref: '#/components/schemas/StubSet' } }) },
          '401': error('Missing or invalid API key'),
        },
      },
      post: {
        operationId: 'addStub',
        summary:
          "Answer the next `times` accepted requests to an operation with this status, body and headers instead of the store's (after authentication, parameters and body are checked; first in, first out; journaled, findings still noted; marked Petstore-Stub: true). Checked against the interface's declared responses unless `invalid` is true. Not shared between instances",
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Stub' }) },
        responses: {
          '201': { description: 'Queued', content: json({ $ref: '#/components/schemas/StubSet' }) },
          '400': error('Not a valid stub, or an answer the spec does not allow (the message starts with the reason: undeclared_status, invalid_body…)'),
          '401': error('Missing or invalid API key'),
        },
      },
      delete: {
        operationId: 'clearStubs',
        summary: 'Remove every stub (a reset does too)',
        responses: { '204': { description: 'No stubs remain' }, '401': error('Missing or invalid API key') },
      },
    },
  },
  components: {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    schemas: {
      PetStatus: openapi.components.schemas.PetStatus,
      NewPet: openapi.components.schemas.NewPet,
      Error: openapi.components.schemas.Error,
      Fault: {
        type: 'object',
        additionalProperties: false,
        properties: {
          latencyMs: { type: 'integer', minimum: 0, maximum: 60000, description: 'Added before the request is handled' },
          status: { type: 'integer', minimum: 400, maximum: 599, description: 'Answered instead, with an Error body of code `fault_injected`' },
          errorRate: { type: 'number', minimum: 0, maximum: 1, description: 'Fraction of requests answered with `status` (1 when `status` is given alone)' },
          dropRate: { type: 'number', minimum: 0, maximum: 1, description: 'Fraction of requests whose connection is dropped unanswered' },
        },
      },
      Stub: {
        type: 'object',
        required: ['operationId', 'status'],
        additionalProperties: false,
        properties: {
          operationId: { type: 'string', description: 'listPets, createPet or getPet' },
          status: { type: 'integer', minimum: 100, maximum: 599 },
          body: { description: 'The JSON body; required when the declared response has one' },
          headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Extra header fields (not Content-Type or Content-Length)' },
          times: { type: 'integer', minimum: 1, maximum: 1000000, description: 'How many requests it answers (1 by default)' },
          invalid: { type: 'boolean', description: 'Answer it even though the spec does not allow it, on purpose' },
        },
      },
      StubSet: {
        type: 'object',
        required: ['operationId', 'status', 'times'],
        properties: { operationId: { type: 'string' }, status: { type: 'integer' }, times: { type: 'integer', description: 'Requests it has left to answer' } },
      },
      ClockSetting: {
        type: 'object',
        required: ['now'],
        additionalProperties: false,
        properties: { now: { type: ['string', 'null'], description: 'An ISO 8601 instant, or null for the real time' } },
      },
      Summary: {
        type: 'object',
        required: ['pets', 'clock'],
        properties: { pets: { type: 'integer' }, clock: { type: 'string' } },
      },
      Loaded: {
        type: 'object',
        required: ['created', 'pets', 'ids'],
        properties: {
          created: { type: 'integer' },
          firstId: { type: 'integer', format: 'int64' },
          lastId: { type: 'integer', format: 'int64' },
          pets: { type: 'integer' },
          ids: {
            type: 'array',
            items: { type: 'integer', format: 'int64' },
            description: 'The ids of the created pets, in order (with --ids random they are no range)',
          },
        },
      },
      State: {
        type: 'object',
        required: ['clock', 'faults', 'journal', 'pets'],
        properties: {
          clock: { type: 'string' },
          faults: { type: 'object' },
          journal: { type: 'integer', description: 'Entries in the journal' },
          pets: { type: 'array', items: { type: 'object' } },
        },
      },
      JournalEntry: {
        type: 'object',
        required: ['id', 'at', 'method', 'path', 'status', 'latencyMs', 'request'],
        properties: {
          id: { type: 'integer', minimum: 1, description: "The request's id: 1, 2, 3… over the interface's requests since start; findings name it" },
          at: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string', description: 'The request target as sent; an API key in it is redacted' },
          status: { type: 'integer', description: '0: the connection was dropped without an answer (an injected fault)' },
          latencyMs: { type: 'number' },
          code: { type: 'string' },
          fault: { type: 'string' },
          findings: { type: 'string', description: 'The findings the request showed, as `severity rule` (comma-separated), as the log marks them' },
          request: { $ref: '#/components/schemas/JournalMessage' },
          response: { $ref: '#/components/schemas/JournalMessage' },
        },
      },
      FindingRequest: {
        type: 'object',
        required: ['request', 'method', 'target', 'at'],
        properties: {
          request: { type: 'integer', minimum: 1, description: "The request's id in the journal (JournalEntry.id)" },
          method: { type: 'string' },
          target: { type: 'string', description: 'The request target as sent; an API key in it redacted; cut after 200 characters' },
          at: { type: 'string', description: 'ISO 8601, by the server clock' },
        },
      },
      Finding: {
        type: 'object',
        required: ['code', 'side', 'severity', 'rule', 'seed', 'sent', 'expected', 'message', 'count', 'first', 'last'],
        properties: {
          code: {
            type: 'string',
            description:
              "A stable code: a refusal's is the Error code the request got (unauthorized, invalid_parameter…); a warning's is unknown_query_parameter, unknown_body_field, deprecated_operation, rounded_id or key_form; a server finding's is the id of the suite's check the upstream's answer breaks (responses.getPet, http.date…)",
          },
          side: {
            enum: ['client', 'server'],
            description:
              "client: what the client sent; server: what the upstream answered, behind petstore proxy, judged by the suite's rules for one exchange",
          },
          severity: {
            enum: ['error', 'warning'],
            description: 'error: the request breaks the interface and was refused; warning: it was served, but relies on what the interface does not promise',
          },
          rule: { type: 'string', description: 'A JSON pointer into spec/openapi.json: the parameter, body field, header or operation concerned' },
          seed: { type: 'string', description: "The seed's section, such as §4.1 List animals" },
          operationId: { type: 'string' },
          sent: { type: 'string', description: 'What the client sent, in its terms (a server finding: what the upstream answered); never an API key' },
          expected: { type: 'string', description: 'What the interface expects instead' },
          message: { type: 'string', description: 'What went wrong and what to do' },
          status: { type: 'integer', description: 'For a refusal: the status the request got' },
          count: { type: 'integer', minimum: 1, description: 'How many requests showed it' },
          first: { $ref: '#/components/schemas/FindingRequest' },
          last: { $ref: '#/components/schemas/FindingRequest' },
        },
      },
      JournalMessage: {
        type: 'object',
        required: ['headers'],
        properties: {
          headers: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'By lower-case name; Authorization, Proxy-Authorization and Cookie read "[redacted]", and any API key elsewhere is replaced with it',
          },
          body: { type: 'string', description: 'As UTF-8 text; after 16 KiB cut, ending in "… [cut: N bytes in all]"; absent when none was sent or read' },
          bodyBytes: { type: 'integer', description: 'The full size of the body' },
        },
      },
      Har: {
        type: 'object',
        required: ['log'],
        properties: {
          log: {
            type: 'object',
            required: ['version', 'creator', 'entries'],
            properties: { version: { const: '1.2' }, creator: { type: 'object' }, entries: { type: 'array', items: { type: 'object' } } },
          },
        },
      },
    },
  },
} as const;
