import type { OpenAPIObject } from '@nestjs/swagger';
import { finalizeDocument, REQUIRED_SCOPES_EXTENSION, RouteAccess } from './openapi-document';

const ok = { '200': { description: 'OK' } };

function doc(): OpenAPIObject {
  return {
    openapi: '3.0.3',
    info: { title: 't', version: 'v1' },
    paths: {
      '/v1': { get: { operationId: 'getPublicApiMeta', tags: ['Platform'], responses: { ...ok } } },
      '/v1/workspace': {
        get: { operationId: 'getWorkspace', tags: ['Workspace'], security: [{ Other: [] }], responses: { ...ok } },
      },
      '/v1/tags': {
        get: { operationId: 'listTags', tags: ['Tags', 'Extra'], responses: { ...ok, '401': { description: 'mine' } } },
        post: { operationId: 'createTag', tags: ['Tags'], responses: { ...ok } },
      },
    },
    components: {},
  };
}

const route = (handler: string, isPublic: boolean, requiredScopes: string[] = []): RouteAccess[] => [{ handler, isPublic, requiredScopes }];

const access = () =>
  new Map<string, RouteAccess[]>([
    ['getPublicApiMeta', route('P.meta', true)],
    ['getWorkspace', route('W.get', false, ['workspace:read'])],
    ['listTags', route('T.list', false, ['tags:read'])],
    ['createTag', route('T.create', false, [])],
  ]);

describe('finalizeDocument', () => {
  it('leaves public operations without security and protects the others with WorkspaceApiKey and their scopes', () => {
    const d = finalizeDocument(doc(), access());
    expect(d.paths['/v1'].get!.security).toBeUndefined();
    expect(d.paths['/v1'].get!).not.toHaveProperty(REQUIRED_SCOPES_EXTENSION);
    const get = d.paths['/v1/workspace'].get! as unknown as Record<string, unknown>;
    expect(get.security).toEqual([{ WorkspaceApiKey: [] }]);
    expect(get[REQUIRED_SCOPES_EXTENSION]).toEqual(['workspace:read']);
    expect((d.paths['/v1/tags'].post! as unknown as Record<string, unknown>)[REQUIRED_SCOPES_EXTENSION]).toEqual([]);
  });

  it('documents 401 and 429 on protected operations, 403 only where a scope is required, and keeps declared responses', () => {
    const d = finalizeDocument(doc(), access());
    expect(Object.keys(d.paths['/v1'].get!.responses)).toEqual(['200']);
    expect(Object.keys(d.paths['/v1/workspace'].get!.responses)).toEqual(['200', '401', '403', '429']);
    expect(d.paths['/v1/tags'].get!.responses['401']).toEqual({ description: 'mine' });
    expect(Object.keys(d.paths['/v1/tags'].post!.responses)).toEqual(['200', '401', '429']);
    expect(d.paths['/v1/tags'].post!.responses['429']).toMatchObject({ headers: { 'Retry-After': { schema: { type: 'integer' } } } });
    expect(d.components!.schemas!.ErrorResponse).toMatchObject({ required: ['error'] });
  });

  it('adds the error schema when only a handler-declared error response uses it', () => {
    const publicOnly: OpenAPIObject = {
      ...doc(),
      paths: {
        '/v1': {
          get: {
            operationId: 'getPublicApiMeta',
            responses: { ...ok, '400': { description: 'x', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } } } },
          },
        },
      },
    };
    expect(finalizeDocument(publicOnly, access()).components!.schemas!.ErrorResponse).toMatchObject({ required: ['error'] });
    const none = finalizeDocument({ ...doc(), paths: { '/v1': { get: { operationId: 'getPublicApiMeta', responses: { ...ok } } } } }, access());
    expect(none.components!.schemas).toBeUndefined();
  });

  it('lists the tags in use, in order, describing the known ones', () => {
    const d = finalizeDocument(doc(), access());
    expect(d.tags!.map((t) => t.name)).toEqual(['Platform', 'Workspace', 'Tags', 'Extra']);
    expect(d.tags![1].description).toEqual(expect.any(String));
    expect(d.tags![3]).toEqual({ name: 'Extra' });
  });

  it('refuses a duplicate operationId, one without a handler, and one shared by two handlers', () => {
    const duplicate = doc();
    duplicate.paths['/v1/tags'].post!.operationId = 'listTags';
    expect(() => finalizeDocument(duplicate, access())).toThrow(/"listTags" is used by both GET \/v1\/tags and POST \/v1\/tags/);
    const unmapped = access();
    unmapped.delete('createTag');
    expect(() => finalizeDocument(doc(), unmapped)).toThrow(/"createTag".*no handler/);
    const shared = access();
    shared.set('createTag', [...route('A.x', false), ...route('B.y', false)]);
    expect(() => finalizeDocument(doc(), shared)).toThrow(/A\.x, B\.y/);
  });
});
