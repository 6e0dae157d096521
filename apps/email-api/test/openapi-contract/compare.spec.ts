import { applyAllowances } from './allowances';
import { compareOperation, formatDifference, OpenApiDocument, Schema, unresolvedReferences } from './compare';

const json = (schema: Schema) => ({ 'application/json': { schema } });
const ERROR: Schema = { type: 'object', required: ['error'], properties: { error: { type: 'object', properties: { code: { type: 'string' } } } } };

/** A one-operation document: PUT /v1/things/{id} with a body, a query parameter and a few responses. */
function documentWith(
  overrides: { parameters?: unknown[]; body?: Schema; responses?: Record<string, unknown>; schemas?: Record<string, Schema> } = {},
): OpenApiDocument {
  return {
    paths: {
      '/v1/things/{id}': {
        put: {
          operationId: 'updateThing',
          security: [{ Key: [] }],
          parameters: overrides.parameters ?? [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          ],
          requestBody: { required: true, content: json(overrides.body ?? { $ref: '#/components/schemas/ThingUpdate' }) },
          responses: overrides.responses ?? {
            '200': { content: json({ type: 'object', required: ['data'], properties: { data: { $ref: '#/components/schemas/Thing' } } }) },
            '404': { content: json({ $ref: '#/components/schemas/Error' }) },
          },
        },
      },
    },
    components: {
      schemas: {
        Error: ERROR,
        Thing: { type: 'object', required: ['id', 'note'], properties: { id: { type: 'string' }, note: { type: 'string', nullable: true } } },
        ThingUpdate: { type: 'object', additionalProperties: false, minProperties: 1, properties: { note: { type: 'string', maxLength: 10 } } },
        ...overrides.schemas,
      },
    },
  };
}

const contract = documentWith();
const differences = (ours: OpenApiDocument) => compareOperation(ours, contract, '/v1/things/{id}', 'put').map(formatDifference);

describe('compareOperation', () => {
  it('finds no difference between a document and itself, whatever its components are called', () => {
    expect(differences(documentWith())).toEqual([]);
    const renamed = JSON.parse(JSON.stringify(documentWith()).replaceAll('schemas/Thing"', 'schemas/ThingDto"')) as OpenApiDocument;
    renamed.components!.schemas!.ThingDto = renamed.components!.schemas!.Thing;
    delete renamed.components!.schemas!.Thing;
    expect(differences(renamed)).toEqual([]);
  });

  it('reads 3.0 and 3.1 spellings of null, of exclusive bounds and of a single allOf alike', () => {
    const ours = documentWith({
      schemas: { Thing: { type: 'object', required: ['note', 'id'], properties: { id: { allOf: [{ type: 'string' }] }, note: { type: ['string', 'null'] } } } },
    });
    expect(differences(ours)).toEqual([]);
    const bounds = compareOperation(
      documentWith({ parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'number', minimum: 0, exclusiveMinimum: true } }] }),
      documentWith({ parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'number', exclusiveMinimum: 0 } }] }),
      '/v1/things/{id}',
      'put',
    );
    expect(bounds).toEqual([]);
  });

  it('names a parameter missing, added, typed differently, bounded differently or styled differently', () => {
    const ours = documentWith({
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'limit', in: 'query', required: true, style: 'deepObject', schema: { type: 'string', maximum: 50 } },
        { name: 'cursor', in: 'query', schema: { type: 'string' } },
      ],
    });
    expect(differences(ours)).toEqual([
      'updateThing $.parameters[query limit].required: contract false, ours true',
      'updateThing $.parameters[query limit].style: contract "form", ours "deepObject"',
      'updateThing $.parameters[query limit].schema.type: contract "integer", ours "string"',
      'updateThing $.parameters[query limit].schema.minimum: contract 1, ours (nothing)',
      'updateThing $.parameters[query limit].schema.maximum: contract 100, ours 50',
      'updateThing $.parameters[query cursor]: contract (nothing), ours "the parameter"',
    ]);
  });

  it('names body differences inside the contract component: openness, minProperties, bounds, properties', () => {
    const ours = documentWith({ schemas: { ThingUpdate: { type: 'object', properties: { note: { type: 'string' }, extra: { type: 'string' } } } } });
    expect(differences(ours)).toEqual([
      'updateThing $.requestBody.content["application/json"].schema.minProperties [ThingUpdate $.minProperties]: contract 1, ours (nothing)',
      'updateThing $.requestBody.content["application/json"].schema.additionalProperties [ThingUpdate $.additionalProperties]: contract "closed", ours "open"',
      'updateThing $.requestBody.content["application/json"].schema.properties.note.maxLength [ThingUpdate $.properties.note.maxLength]: contract 10, ours (nothing)',
      'updateThing $.requestBody.content["application/json"].schema.properties.extra [ThingUpdate $.properties.extra]: contract (nothing), ours "the property"',
    ]);
  });

  it('names a missing response, a changed response schema, a missing required field and an unresolvable $ref', () => {
    const ours = documentWith({
      responses: { '200': { content: json({ type: 'object', properties: { data: { $ref: '#/components/schemas/Gone' } } }) } },
    });
    expect(differences(ours)).toEqual([
      'updateThing $.responses[200].content["application/json"].schema.required: contract ["data"], ours (nothing)',
      'updateThing $.responses[200].content["application/json"].schema.properties.data: contract "a resolvable $ref", ours "$ref #/components/schemas/Gone does not resolve"',
      'updateThing $.responses[404]: contract "the response", ours (nothing)',
    ]);
    expect(unresolvedReferences(ours)).toEqual([
      '$.paths["/v1/things/{id}"].put.responses["200"].content["application/json"].schema.properties.data: #/components/schemas/Gone',
    ]);
  });

  it('takes an extra error status with the error body, and refuses one with another body or an extra success status', () => {
    const base = documentWith();
    const responses = (base.paths['/v1/things/{id}'].put as { responses: Record<string, unknown> }).responses;
    expect(differences(documentWith({ responses: { ...responses, '401': { content: json({ $ref: '#/components/schemas/Error' }) } } }))).toEqual([]);
    expect(differences(documentWith({ responses: { ...responses, '409': { content: json({ type: 'string' }) }, '202': {} } }))).toEqual([
      'updateThing $.responses[202]: contract (nothing), ours "the response"',
      'updateThing $.responses[409].content["application/json"].schema.type [Error $.type]: contract "object", ours "string"',
      'updateThing $.responses[409].content["application/json"].schema.required [Error $.required]: contract ["error"], ours (nothing)',
      'updateThing $.responses[409].content["application/json"].schema.properties.error [Error $.properties.error]: contract "the property", ours (nothing)',
    ]);
  });

  it('names an operation the contract does not have', () => {
    const ours = documentWith();
    ours.paths['/v1/extra'] = { get: { operationId: 'getExtra', responses: {} } };
    expect(compareOperation(ours, contract, '/v1/extra', 'get').map(formatDifference)).toEqual(['getExtra $: contract (nothing), ours "GET /v1/extra"']);
  });
});

describe('applyAllowances', () => {
  const ours = documentWith({
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, maxLength: 3 } },
    ],
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'note'],
        properties: { id: { type: 'string' }, note: { type: 'string', nullable: true }, extra: { type: 'string' } },
      },
    },
  });
  const found = compareOperation(ours, contract, '/v1/things/{id}', 'put');

  it('excuses what we add where the contract is silent and open, by component or by operation, and reports unused entries', () => {
    const outcome = applyAllowances(found, [
      { at: 'Thing $.properties.extra', reason: 'r' },
      { at: 'updateThing $.parameters[query limit].schema.maxLength', reason: 'r' },
      { at: 'Thing $.properties.stale', reason: 'r' },
    ]);
    expect(outcome.unexplained).toEqual([]);
    expect(outcome.refused).toEqual([]);
    expect(outcome.unused).toEqual([{ at: 'Thing $.properties.stale', reason: 'r' }]);
  });

  it('refuses to excuse a difference from what the contract states, or a property the contract closes out', () => {
    const closed = documentWith({
      schemas: {
        ThingUpdate: { type: 'object', additionalProperties: false, minProperties: 1, properties: { note: { type: 'string' }, role: { type: 'string' } } },
      },
    });
    const outcome = applyAllowances(compareOperation(closed, contract, '/v1/things/{id}', 'put'), [
      { at: 'ThingUpdate $.properties.note.maxLength', reason: 'r' },
      { at: 'ThingUpdate $.properties.role', reason: 'r' },
    ]);
    expect(outcome.refused.map(({ allowance }) => allowance.at)).toEqual(['ThingUpdate $.properties.note.maxLength', 'ThingUpdate $.properties.role']);
    expect(outcome.unexplained).toEqual([]);
  });
});
