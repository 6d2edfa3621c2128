import { ContractValidator, type ContractExchange, type OpenApiLike } from './contract';

/** A tiny document in the shape the gateway's is built in: $refs into components. */
const document: OpenApiLike = {
  openapi: '3.1.0',
  servers: [{ url: '/' }],
  paths: {
    '/api/v1/things': {
      get: {
        responses: {
          '200': {
            description: 'A list.',
            headers: { 'X-Count': { $ref: '#/components/headers/X-Count' } },
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
              },
            },
          },
          '4XX': {
            description: 'Refused.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
    '/api/v1/things/{id}': {
      get: {
        responses: {
          '200': {
            description: 'One.',
            headers: {
              'X-Trace': { required: true, schema: { type: 'string', pattern: '^tr_' } },
            },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
      delete: { responses: { '204': { description: 'Gone.' } } },
    },
    '/api/v1/things/special': {
      get: {
        responses: {
          '200': { description: 'Page.', content: { 'text/html': { schema: { type: 'string' } } } },
          default: {
            description: 'Anything else.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'count', 'created_at'],
        properties: {
          id: { type: 'string', pattern: '^thg_' },
          count: { type: 'integer' },
          created_at: { type: 'string', format: 'date-time' },
          owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] },
        },
      },
      Owner: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' } },
      },
      Error: {
        type: 'object',
        required: ['statusCode', 'error', 'message'],
        properties: {
          statusCode: { type: 'integer' },
          error: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
    headers: { 'X-Count': { schema: { type: 'string', pattern: '^\\d+$' } } },
    responses: {
      NotFound: {
        description: 'No such thing.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  },
};

const thing = { id: 'thg_1', count: 2, created_at: '2025-01-02T03:04:05.000Z', owner: null };
const error = { statusCode: 404, error: 'Not Found', message: 'No thing thg_2' };

function exchange(overrides: Partial<ContractExchange> & { body?: unknown }): ContractExchange {
  const { body, ...rest } = overrides;
  return {
    method: 'GET',
    url: 'http://127.0.0.1:4000/api/v1/things',
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-count': '1' },
    text: body === undefined ? '' : JSON.stringify(body),
    ...rest,
  };
}

function violations(input: ContractExchange): string[] {
  const outcome = new ContractValidator(document).check(input);
  if (outcome.kind !== 'validated') throw new Error(`not validated: ${outcome.reason}`);
  return outcome.violations;
}

describe('ContractValidator', () => {
  it('accepts a response the document describes', () => {
    const outcome = new ContractValidator(document).check(exchange({ body: [thing] }));
    expect(outcome).toEqual({ kind: 'validated', operation: 'GET /api/v1/things', violations: [] });
  });

  it('matches a {id} template and checks the response found by $ref', () => {
    const validator = new ContractValidator(document);
    const found = validator.check(
      exchange({
        url: 'http://127.0.0.1:4000/api/v1/things/thg_1?expand=owner',
        headers: { 'Content-Type': 'application/json', 'X-Trace': 'tr_9' },
        body: { ...thing, owner: { name: 'Ada' } },
      }),
    );
    expect(found).toEqual({
      kind: 'validated',
      operation: 'GET /api/v1/things/{id}',
      violations: [],
    });
    const missing = validator.check(
      exchange({ url: '/api/v1/things/thg_2', status: 404, body: { statusCode: 404 } }),
    );
    expect(missing.kind).toBe('validated');
    expect(missing.kind === 'validated' && missing.violations).toEqual([
      expect.stringContaining("body (root) must have required property 'error'"),
      expect.stringContaining("body (root) must have required property 'message'"),
      expect.stringContaining('body was: {"statusCode":404}'),
    ]);
  });

  it('matches an id holding an encoded slash to the {id} template, not a skip', () => {
    const outcome = new ContractValidator(document).check(
      exchange({ url: 'http://127.0.0.1:4000/api/v1/things/a%2Fb', status: 404, body: {} }),
    );
    expect(outcome.kind).toBe('validated');
    expect(outcome.kind === 'validated' && outcome.operation).toBe('GET /api/v1/things/{id}');
  });

  it('prefers a literal path segment over a template', () => {
    const outcome = new ContractValidator(document).check(
      exchange({
        url: '/api/v1/things/special',
        headers: { 'content-type': 'text/html; charset=utf-8' },
        text: '<p>hi</p>',
      }),
    );
    expect(outcome).toEqual({
      kind: 'validated',
      operation: 'GET /api/v1/things/special',
      violations: [],
    });
  });

  it('reports a body of the wrong type, with where it differs', () => {
    const problems = violations(exchange({ body: [{ ...thing, count: '2' }] }));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      /^GET \/api\/v1\/things → 200 \(GET \/api\/v1\/things\): body\/0\/count must be integer/,
    );
    expect(problems[1]).toContain('body was: [{');
  });

  it('reports a property that additionalProperties: false forbids, naming it', () => {
    const [problem] = violations(exchange({ body: [{ ...thing, secret: 'x' }] }));
    expect(problem).toContain('body/0 must NOT have additional properties: "secret"');
  });

  it('checks formats and nested $refs', () => {
    const problems = violations(
      exchange({ body: [{ ...thing, created_at: 'yesterday', owner: { name: 5 } }] }),
    );
    expect(problems.join('\n')).toContain('body/0/created_at must match format "date-time"');
    expect(problems.join('\n')).toContain('body/0/owner/name must be string');
  });

  it('reports a status the operation does not document', () => {
    expect(violations(exchange({ status: 500, body: error }))).toEqual([
      'GET /api/v1/things → 500 (GET /api/v1/things): status 500 is not a documented response ' +
        '(documented: 200, 4XX)',
    ]);
  });

  it('matches a status range and a default response', () => {
    expect(violations(exchange({ status: 429, body: { ...error, statusCode: 429 } }))).toEqual([]);
    expect(
      violations(exchange({ url: '/api/v1/things/special', status: 503, body: error })),
    ).toEqual([]);
  });

  it('reports a header value its schema refuses, and a missing required header', () => {
    expect(
      violations(
        exchange({
          headers: { 'content-type': 'application/json', 'x-count': 'many' },
          body: [],
        }),
      ),
    ).toEqual([
      expect.stringMatching(/: header X-Count \("many"\) must match pattern "\^\\d\+\$"/),
    ]);
    expect(
      violations(
        exchange({
          url: '/api/v1/things/thg_1',
          headers: { 'content-type': 'application/json' },
          body: thing,
        }),
      ),
    ).toEqual([expect.stringContaining(': required header X-Trace is missing')]);
  });

  it('reports an undocumented content type, a missing body and an unexpected one', () => {
    expect(
      violations(
        exchange({ headers: { 'content-type': 'text/plain', 'x-count': '0' }, text: 'x' }),
      ),
    ).toEqual([
      expect.stringContaining(
        'content-type text/plain is not documented (documented: application/json)',
      ),
    ]);
    expect(violations(exchange({ headers: { 'x-count': '0' } }))).toEqual([
      expect.stringContaining('has no content-type'),
    ]);
    expect(
      violations(
        exchange({ method: 'DELETE', url: '/api/v1/things/thg_1', status: 204, body: thing }),
      ),
    ).toEqual([expect.stringContaining('the document describes no content for this response')]);
    expect(
      violations(exchange({ method: 'DELETE', url: '/api/v1/things/thg_1', status: 204 })),
    ).toEqual([]);
  });

  it('reports a body that is not the JSON its content type claims', () => {
    expect(violations(exchange({ text: '{"id":' }))).toEqual([
      expect.stringContaining('body is not valid JSON'),
    ]);
  });

  it('skips paths and methods the document does not describe', () => {
    const validator = new ContractValidator(document);
    expect(validator.check(exchange({ url: 'http://127.0.0.1:4000/health' }))).toEqual({
      kind: 'not-described',
      reason: 'GET /health: path not in the document',
    });
    expect(validator.check(exchange({ url: '/api/v1/things/a/b', status: 404 })).kind).toBe(
      'not-described',
    );
    expect(
      validator.check(exchange({ method: 'PUT', url: '/api/v1/things', status: 404 })),
    ).toEqual({ kind: 'not-described', reason: 'PUT /api/v1/things: /api/v1/things has no put' });
  });

  it('names a schema that does not compile instead of passing the response', () => {
    const broken: OpenApiLike = {
      paths: {
        '/x': {
          get: {
            responses: {
              '200': {
                description: 'x',
                content: {
                  'application/json': { schema: { $ref: '#/components/schemas/Missing' } },
                },
              },
            },
          },
        },
      },
    };
    const outcome = new ContractValidator(broken).check(exchange({ url: '/x', body: {} }));
    expect(outcome.kind === 'validated' && outcome.violations).toEqual([
      expect.stringMatching(
        /body: the schema at #\/paths\/~1x\/get\/responses\/200\/.* does not compile/,
      ),
    ]);
  });
});
