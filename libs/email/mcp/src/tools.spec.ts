import type { OpenAPIObject } from '@nestjs/swagger';
import { errorCategory, errorResult } from './results';
import { toRouteRequest, ToolArgumentError } from '@shared/mcp';
import { buildEmailTools } from './tools';

const json = (ref: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 't', version: 'v1' },
  paths: {
    '/v1/subscribers': {
      get: {
        operationId: 'listSubscribers',
        parameters: [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100 } }],
        responses: { '200': { description: '', ...json('Page') } },
      },
      post: {
        operationId: 'upsertSubscriber',
        parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string' } }],
        requestBody: { required: true, ...json('Upsert') },
        responses: { '200': { description: '', ...json('One') }, '201': { description: '', ...json('One') } },
      },
    },
    '/v1/subscribers/{subscriber_id}/tags/{tag_id}': {
      delete: {
        operationId: 'removeSubscriberTag',
        parameters: [
          { name: 'subscriber_id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'tag_id', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: { '204': { description: '' } },
      },
    },
    '/v1/gadgets': { get: { operationId: 'listGadgets', responses: { '200': { description: '' } } } },
  },
  components: {
    schemas: {
      Page: { type: 'object', properties: { data: { type: 'array', items: { type: 'object' } } }, required: ['data'] },
      One: { type: 'object', properties: { data: { type: 'object' } }, required: ['data'] },
      Upsert: { type: 'object', additionalProperties: false, properties: { email: { type: 'string' }, name: { type: 'string' } }, required: ['email'] },
    },
  },
} as unknown as OpenAPIObject;

describe('email MCP tools', () => {
  const tools = buildEmailTools(DOCUMENT);
  const tool = (name: string) => tools.find((t) => t.name === name)!;

  it('makes one tool per served contract operation, named and annotated from the catalogue', () => {
    expect(tools.map((t) => t.name)).toEqual(['subscribers_list', 'subscribers_upsert', 'subscribers_remove_tag']);
    expect(tool('subscribers_remove_tag').annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('puts path and query parameters, the idempotency key and a flat body into one input object', () => {
    expect(tool('subscribers_upsert').inputSchema).toEqual({
      type: 'object',
      properties: {
        idempotency_key: { type: 'string', description: 'Sent as the Idempotency-Key header.' },
        email: { type: 'string' },
        name: { type: 'string' },
      },
      required: ['email'],
      additionalProperties: false,
    });
    expect(tool('subscribers_remove_tag').inputSchema).toMatchObject({ required: ['subscriber_id', 'tag_id'], additionalProperties: false });
  });

  it('describes success answers (null for 204) and the error object in the output schema', () => {
    const output = tool('subscribers_remove_tag').outputSchema as { properties: Record<string, { type?: string; const?: string }> };
    expect(output.properties.operation_id.const).toBe('removeSubscriberTag');
    expect(output.properties.response.type).toBe('null');
    expect(tool('subscribers_upsert').outputSchema).toMatchObject({ properties: { response: { $ref: '#/$defs/One' } }, $defs: { One: expect.any(Object) } });
  });

  it('maps arguments to the REST request', () => {
    expect(toRouteRequest(tool('subscribers_list').route, { limit: 1 })).toEqual({ method: 'GET', url: '/v1/subscribers?limit=1', headers: {} });
    expect(toRouteRequest(tool('subscribers_upsert').route, { email: 'a@b.co', idempotency_key: 'k1' })).toEqual({
      method: 'POST',
      url: '/v1/subscribers',
      headers: { 'idempotency-key': 'k1', 'content-type': 'application/json' },
      body: { email: 'a@b.co' },
    });
    expect(toRouteRequest(tool('subscribers_remove_tag').route, { subscriber_id: 'sub 1', tag_id: 'tag/2' }).url).toBe('/v1/subscribers/sub%201/tags/tag%2F2');
  });

  it('refuses arguments it cannot place', () => {
    expect(() => toRouteRequest(tool('subscribers_remove_tag').route, { subscriber_id: 'sub_1' })).toThrow(ToolArgumentError);
    expect(() => toRouteRequest(tool('subscribers_list').route, { limit: 1, colour: 'red' })).toThrow(/colour/);
    expect(() => toRouteRequest(tool('subscribers_list').route, { limit: { deep: 1 } })).toThrow(/limit/);
  });

  it('maps statuses to the contract categories', () => {
    expect([400, 422, 401, 403, 409, 429, 408, 425, 500, 503, 404, 413].map(errorCategory)).toEqual([
      'validation',
      'validation',
      'authentication',
      'permission',
      'conflict',
      'rate_limit',
      'transient',
      'transient',
      'transient',
      'transient',
      'unknown',
      'unknown',
    ]);
    expect(errorResult('listTags', 'req_1', { status: 429, code: 'rate_limited', message: 'Slow down.' })).toMatchObject({
      isError: true,
      structuredContent: { error: { category: 'rate_limit', retryable: true } },
    });
  });
});
