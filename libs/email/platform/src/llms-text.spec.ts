import type { OpenAPIObject } from '@nestjs/swagger';
import { renderLlmsFullTxt, renderLlmsTxt } from './llms-text';

const links = {
  api_base_url: 'https://api.example.com',
  api_catalog_url: 'https://api.example.com/.well-known/api-catalog',
  documentation_url: 'https://docs.example.com',
  openapi_url: 'https://api.example.com/v1/openapi.json',
  capabilities_url: 'https://api.example.com/v1/capabilities',
  llms_url: 'https://api.example.com/llms.txt',
  llms_full_url: 'https://api.example.com/llms-full.txt',
};

const document: OpenAPIObject = {
  openapi: '3.0.3',
  info: { title: 'Example API', description: 'Does things.', version: 'v1' },
  tags: [{ name: 'Platform' }, { name: 'Tags', description: 'The tag catalogue.' }],
  paths: {
    '/v1': { get: { operationId: 'getPublicApiMeta', summary: 'Get API metadata', tags: ['Platform'], responses: { '200': { description: 'OK' } } } },
    '/v1/tags/{tag_id}': {
      put: {
        operationId: 'updateTag',
        summary: 'Update a tag',
        tags: ['Tags'],
        security: [{ WorkspaceApiKey: [] }],
        'x-required-scopes': ['tags:write'],
        parameters: [{ name: 'tag_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/TagUpdate' } } } },
        responses: {
          '200': { description: 'Saved.', content: { 'application/json': { schema: { $ref: '#/components/schemas/TagResponse' } } } },
          '401': { description: 'No credential.' },
        },
      } as never,
    },
  },
  components: {
    schemas: {
      TagUpdate: { type: 'object', properties: { name: { type: 'string', maxLength: 100 }, description: { type: 'string', nullable: true } } },
      Tag: {
        type: 'object',
        required: ['id', 'kind', 'parent'],
        properties: { id: { type: 'string' }, kind: { type: 'string', enum: ['plain', 'gdpr'] }, parent: { $ref: '#/components/schemas/Tag' } },
      },
      TagResponse: { type: 'object', required: ['data'], properties: { data: { $ref: '#/components/schemas/Tag' } } },
      ErrorResponse: { type: 'object', required: ['error'], properties: { error: { type: 'object', properties: { code: { type: 'string' } } } } },
    },
  },
};

describe('llms files', () => {
  it('llms.txt: title, summary, auth, conventions, then operations per tag and the links', () => {
    const text = renderLlmsTxt(document, links);
    expect(text.startsWith('# Example API\n\n> Does things.\n')).toBe(true);
    expect(text.indexOf('## Authentication')).toBeLessThan(text.indexOf('## Conventions'));
    expect(text.indexOf('## Conventions')).toBeLessThan(text.indexOf('## Platform'));
    expect(text).toContain('- `GET /v1`: Get API metadata (public)');
    expect(text).toContain('## Tags\n\n- `PUT /v1/tags/{tag_id}`: Update a tag (scopes: `tags:write`)');
    expect(text).toContain('- [Full reference](https://api.example.com/llms-full.txt)');
    expect(text).not.toContain('Request body');
  });

  it('llms-full.txt: parameters, request and response fields, cycles cut, error body', () => {
    const text = renderLlmsFullTxt(document, links);
    expect(text).toContain('### PUT /v1/tags/{tag_id}\n\nUpdate a tag');
    expect(text).toContain('The tag catalogue.');
    expect(text).toContain('- `tag_id` (path, string, required)');
    expect(text).toContain('Request body (application/json, required):');
    expect(text).toContain('- `name` (string, optional): At most 100 characters.');
    expect(text).toContain('- `description` (string or null, optional)');
    expect(text).toContain('  - `kind` (string, required): One of `plain`, `gdpr`.');
    expect(text).toContain('(Tag, as above)');
    expect(text).toContain('- 401: No credential.');
    expect(text).toContain('## Error body');
  });
});
