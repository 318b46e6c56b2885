/**
 * The Pet Store Service Interface v1.0.0 as one OpenAPI 3.1 document.
 *
 * This object is the source of truth for the whole project: the types
 * (`spec/types.ts`), the server's validation and routing, and the conformance
 * suite's generators and checks are all derived from it. `spec/openapi.json`
 * is generated from it (`npm run spec:json`) for tools that read JSON, and a
 * test fails when that file is stale.
 *
 * It says what the seed says and nothing more. Where the seed says "not
 * shown" (paging, error codes, out-of-range `limit`, a default `status`,
 * response headers, the maximum length of `name`), this document is silent;
 * the reference server's choices live in `src/server/decisions.ts` and the
 * README, never here.
 *
 * The two `x-` keys on `getPet` carry facts the seed does state (the removal
 * date and the replacement) in a form code can read.
 *
 * Every schema, parameter and response has an example, for the tools that
 * read them (Prism's mock serves them, Dredd sends them, documentation shows
 * them). They tell one story: Rex, created first, is pet 1 of category 1,
 * available. They are illustrations, not rules: validation and the suite's
 * generators ignore `example` and `examples` (test/spec/openapi/examples.test.ts
 * checks each against its schema). The Error examples use the reference
 * server's codes, one choice among many the seed allows.
 */
const REX = { id: 1, name: 'Rex', categoryId: 1, status: 'available' } as const;
const errorExample = (code: string, message: string, status: number) => ({ code, message, status });
const UNAUTHORIZED = errorExample('unauthorized', 'an API key is required: send Authorization: Bearer <API_KEY>', 401);

export const openapi = {
  openapi: '3.1.0',
  info: {
    title: 'Pet Store Service Interface',
    version: '1.0.0',
    description:
      'A small HTTP/JSON interface for managing animals in a store. It lists, adds and retrieves animals. ' +
      'All requests need an API key sent as a bearer token. Requests and responses are JSON.',
  },
  servers: [
    { url: '{base_url}', description: 'Production (the path ends in /v1)', variables: { base_url: { default: 'https://petstore.example.com/v1' } } },
    {
      url: '{staging_base_url}',
      description: 'Staging (the path ends in /v1)',
      variables: { staging_base_url: { default: 'https://staging.petstore.example.com/v1' } },
    },
  ],
  security: [{ bearerAuth: [] }],
  tags: [
    { name: 'pets', description: 'Animals offered by the store' },
    { name: 'store', description: 'Store orders: referred to by the seed as an existing grouping, operations not shown' },
  ],
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        summary: 'List animals',
        description: 'A paginated list of animals, optionally filtered by status. Paging beyond the first page is not part of this interface.',
        tags: ['pets'],
        security: [{ bearerAuth: [] }],
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'Maximum number of animals returned',
            schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
            example: 20,
          },
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Returns only animals with this status',
            schema: { $ref: '#/components/schemas/PetStatus' },
            example: REX.status,
          },
        ],
        responses: {
          '200': {
            description: 'A paginated list of animals',
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Pets' },
                example: [REX, { id: 2, name: 'Tom', categoryId: 2 }],
              },
            },
          },
          '401': { $ref: '#/components/responses/Unauthorized' },
        },
      },
      post: {
        operationId: 'createPet',
        summary: 'Add an animal',
        tags: ['pets'],
        security: [{ bearerAuth: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/NewPet' },
              examples: {
                withStatus: { value: { name: REX.name, categoryId: REX.categoryId, status: REX.status } },
                withoutStatus: { value: { name: 'Tom', categoryId: 2 } },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'The created animal, including its service-assigned id',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' }, example: REX } },
          },
          '400': { $ref: '#/components/responses/BadRequest' },
          '401': { $ref: '#/components/responses/Unauthorized' },
        },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        summary: 'Get an animal',
        description: 'Deprecated: scheduled for removal on 5 December 2030. The replacement is `GET /pets` filtered with `status`.',
        deprecated: true,
        'x-sunset': '2030-12-05T00:00:00Z',
        'x-replacement': 'listPets',
        tags: ['pets'],
        security: [{ bearerAuth: [] }],
        parameters: [
          {
            name: 'petId',
            in: 'path',
            required: true,
            description: 'Identifier of the animal',
            schema: { type: 'integer', format: 'int64' },
            example: REX.id,
          },
        ],
        responses: {
          '200': {
            description: 'The animal',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' }, example: REX } },
          },
          '401': { $ref: '#/components/responses/Unauthorized' },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
  },
  components: {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description: 'The API key, sent in the Authorization header as `Bearer <API_KEY>`.',
      },
    },
    responses: {
      BadRequest: {
        description: 'The body lacks required fields or holds invalid values',
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: errorExample('invalid_body', 'categoryId is required', 400) },
        },
      },
      Unauthorized: {
        description: 'Missing or invalid API key',
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            example: UNAUTHORIZED,
          },
        },
      },
      NotFound: {
        description: 'No animal with the given petId',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: errorExample('pet_not_found', 'no animal has id 1', 404) } },
      },
    },
    schemas: {
      PetStatus: {
        type: 'string',
        enum: ['available', 'pending', 'sold'],
        description: 'Availability of an animal',
        examples: [REX.status],
      },
      NewPet: {
        type: 'object',
        required: ['name', 'categoryId'],
        properties: {
          name: { type: 'string', description: "The animal's name" },
          categoryId: { type: 'integer', format: 'int64', description: 'Identifier of the category the animal belongs to' },
          status: { $ref: '#/components/schemas/PetStatus' },
        },
        examples: [{ name: REX.name, categoryId: REX.categoryId, status: REX.status }],
      },
      Pet: {
        type: 'object',
        required: ['id', 'name', 'categoryId'],
        properties: {
          id: { type: 'integer', format: 'int64', description: 'Unique identifier assigned by the service on creation' },
          name: { type: 'string', description: "The animal's name" },
          categoryId: { type: 'integer', format: 'int64', description: 'Identifier of the category the animal belongs to' },
          status: { $ref: '#/components/schemas/PetStatus' },
        },
        examples: [REX],
      },
      Pets: {
        type: 'array',
        items: { $ref: '#/components/schemas/Pet' },
        examples: [[REX, { id: 2, name: 'Tom', categoryId: 2 }]],
      },
      Error: {
        type: 'object',
        required: ['code', 'message', 'status'],
        properties: {
          code: { type: 'string', description: 'Machine-readable error code' },
          message: { type: 'string', description: 'Human-readable description' },
          status: { type: 'integer', description: 'The HTTP status code of the response' },
        },
        examples: [UNAUTHORIZED],
      },
    },
  },
} as const;

export type OpenApiDocument = typeof openapi;
