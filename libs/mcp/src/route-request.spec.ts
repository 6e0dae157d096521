import { SchemaConverter } from './json-schema';
import { routeInput, toRouteRequest, ToolArgumentError } from './route-request';

const converter = new SchemaConverter({
  Edit: {
    type: 'object',
    additionalProperties: false,
    properties: { title: { type: 'string' }, draft_revision: { type: 'integer' } },
    required: ['title'],
  },
  Text: { type: 'object', properties: { type: { const: 'text' }, label: { type: 'string' }, maxLength: { type: 'integer' } }, required: ['type', 'label'] },
  Choice: { type: 'object', properties: { type: { const: 'choice' }, label: { type: 'string' }, options: { type: 'array' } }, required: ['type', 'options'] },
  Field: { oneOf: [{ $ref: '#/components/schemas/Text' }, { $ref: '#/components/schemas/Choice' }] },
});
const json = (ref: string) => ({ required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });
const names = { form_id: 'formId', draft_revision: 'draftRevision' };
const formPath = { name: 'form_id', in: 'path', required: true, schema: { type: 'string' } };

describe('routeInput and toRouteRequest', () => {
  it('renames REST names to tool argument names and back, accepting the REST spelling too', () => {
    const { schema, route } = routeInput(converter, 'patch', '/forms/{form_id}', { parameters: [formPath], requestBody: json('Edit') }, { names });
    expect(schema).toEqual({
      type: 'object',
      properties: { formId: { type: 'string' }, title: { type: 'string' }, draftRevision: { type: 'integer' } },
      required: ['formId', 'title'],
      additionalProperties: false,
    });
    const expected = { method: 'PATCH', url: '/forms/frm%201', headers: { 'content-type': 'application/json' }, body: { title: 'T', draft_revision: 3 } };
    expect(toRouteRequest(route, { formId: 'frm 1', title: 'T', draftRevision: 3 })).toEqual(expected);
    expect(toRouteRequest(route, { form_id: 'frm 1', title: 'T', draft_revision: 3 })).toEqual(expected);
    expect(() => toRouteRequest(route, { title: 'T' })).toThrow(new ToolArgumentError('formId is required.', 'formId'));
  });

  it('refuses a path argument with an unpaired surrogate as that argument’s error, not a URIError', () => {
    const { route } = routeInput(converter, 'get', '/forms/{form_id}', { parameters: [formPath] }, { names });
    for (const formId of ['\ud800', 'frm_\udfff']) {
      expect(() => toRouteRequest(route, { formId })).toThrow(expect.objectContaining({ constructor: ToolArgumentError, argument: 'formId' }));
    }
    expect(toRouteRequest(route, { formId: '\ud83d\ude00' }).url).toBe('/forms/%F0%9F%98%80');
  });

  it('flattens a body that is one of several object shapes when asked, else nests it', () => {
    const operation = { parameters: [formPath], requestBody: json('Field') };
    expect(routeInput(converter, 'post', '/forms/{form_id}/fields', operation).schema.properties).toHaveProperty('body');
    const { schema, route } = routeInput(converter, 'post', '/forms/{form_id}/fields', operation, { names, flattenUnions: true });
    expect(schema).toMatchObject({
      properties: { type: { enum: ['text', 'choice'] }, label: { type: 'string' }, maxLength: { type: 'integer' }, options: { type: 'array' } },
      required: ['formId', 'type'],
      additionalProperties: true,
    });
    expect(toRouteRequest(route, { formId: 'f', type: 'text', label: 'L' }).body).toEqual({ type: 'text', label: 'L' });
  });

  it('sends the idempotency argument as the header', () => {
    const operation = { parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } }], requestBody: json('Edit') };
    const { schema, route } = routeInput(converter, 'post', '/forms', operation, { idempotencyArgument: 'idempotencyKey' });
    expect(schema.properties).toHaveProperty('idempotencyKey');
    expect(toRouteRequest(route, { idempotencyKey: 'k1', title: 'T' }).headers).toEqual({ 'idempotency-key': 'k1', 'content-type': 'application/json' });
    expect(() => toRouteRequest(route, { idempotencyKey: 7, title: 'T' })).toThrow(/idempotencyKey must be a string/);
  });
});
