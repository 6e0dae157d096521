import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { API_RESOURCE_GROUPS, ApiDescription } from '@email/platform';
import { contractOperations } from './contract';
import { saveConnection, smtpConnection } from './broadcasts-fixtures';
import { emailApi, EmailApiHarness } from './helpers';

const PUBLIC_BASE_URL = 'https://mail.example.test';
const PLATFORM_OPERATIONS = ['getPublicApiMeta', 'getPublicApiCapabilities', 'getPublicApiOpenApiDocument'];

interface DocOperation {
  method: string;
  path: string;
  operationId: string;
  summary?: string;
  security?: unknown[];
  requiredScopes?: string[];
  /** Our extension beyond the contract (x-postline-extension). */
  extension: boolean;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
}

type OpenApi = {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, object>; securitySchemes: Record<string, object> };
};

function operationsOf(document: OpenApi): DocOperation[] {
  return Object.entries(document.paths).flatMap(([p, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      path: p,
      operationId: op.operationId as string,
      summary: op.summary as string | undefined,
      security: op.security as unknown[] | undefined,
      requiredScopes: op['x-required-scopes'] as string[] | undefined,
      extension: op['x-postline-extension'] === true,
      parameters: op.parameters as DocOperation['parameters'],
    })),
  );
}

/** A copy of the document's schemas where every object schema with properties is closed, so extra response keys fail validation. */
function closed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(closed) as T;
  if (!value || typeof value !== 'object') return value;
  const copy = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, closed(v)])) as Record<string, unknown>;
  if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy as T;
}

describe('email-api: discovery (OpenAPI document, capabilities, llms files, API catalog)', () => {
  let h: EmailApiHarness;
  let document: OpenApi;
  let operations: DocOperation[];
  const http = () => request(h.app.getHttpServer());

  beforeAll(async () => {
    h = await emailApi({ PUBLIC_BASE_URL });
    // A workspace that can send: the delivery-connection limitation is discovery-limitations.e2e-spec's subject.
    await saveConnection(h.app, h.workspaceId, smtpConnection('edc_discovery', 2525));
    document = (await http().get('/v1/openapi.json').expect(200)).body;
    operations = operationsOf(document);
  });
  afterAll(() => h?.close());

  /** The non-platform operations a credential with `scopes` can call, according to the document. */
  const callableWith = (scopes: string[]) =>
    operations
      .filter((op) => !PLATFORM_OPERATIONS.includes(op.operationId) && op.security?.length)
      .filter((op) => (op.requiredScopes ?? []).every((s) => scopes.includes(s)))
      .map((op) => op.operationId)
      .sort();

  describe('GET /v1/openapi.json', () => {
    it('is public JSON, generated once and served from memory', async () => {
      const first = await http().get('/v1/openapi.json').expect(200);
      expect(first.headers['content-type']).toMatch(/^application\/json/);
      const second = await http().get('/v1/openapi.json').expect(200);
      expect(second.text).toBe(first.text);
      const description = h.app.get(ApiDescription);
      expect(description.documentJson).toBe(description.documentJson);
      expect(first.text).toBe(description.documentJson);
    });

    it('validates as OpenAPI 3.0 (offline validator) with unique operation ids and declared path parameters', async () => {
      expect(document.openapi).toBe('3.0.3');
      await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
      const ids = operations.map((op) => op.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      for (const op of operations) {
        const templated = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
        const declared = (op.parameters ?? [])
          .filter((p) => p.in === 'path' && p.required)
          .map((p) => p.name)
          .sort();
        expect({ op: op.operationId, params: declared }).toEqual({ op: op.operationId, params: templated });
      }
    });

    it('declares the WorkspaceApiKey bearer scheme and the configured server', () => {
      expect(document.servers).toEqual([expect.objectContaining({ url: PUBLIC_BASE_URL })]);
      expect(document.components.securitySchemes).toEqual({
        WorkspaceApiKey: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'Bearer Credential' }),
      });
    });

    it('leaves public operations without security and protects every other one', () => {
      const byId = new Map(operations.map((op) => [op.operationId, op]));
      for (const id of ['getPublicApiMeta', 'getPublicApiOpenApiDocument']) expect(byId.get(id)!.security).toBeUndefined();
      for (const op of operations.filter((o) => !['getPublicApiMeta', 'getPublicApiOpenApiDocument'].includes(o.operationId))) {
        expect({ op: op.operationId, security: op.security }).toEqual({ op: op.operationId, security: [{ WorkspaceApiKey: [] }] });
        expect(Array.isArray(op.requiredScopes)).toBe(true);
      }
      expect(byId.get('getPublicApiCapabilities')!.requiredScopes).toEqual([]);
      expect(byId.get('getWorkspace')!.requiredScopes).toEqual(['workspace:read']);
    });

    it('lists only /v1 operations: no health, llms or well-known routes', () => {
      for (const p of Object.keys(document.paths)) expect(p).toMatch(/^\/v1(\/|$)/);
    });
  });

  describe('contract conformance', () => {
    // The shared spec sits beside the repository in development and CI: a missing file fails here, it is never skipped.
    const contract = contractOperations();

    it('every implemented operation has the contract method, path, operationId and required scopes', () => {
      const byId = new Map(contract.map((op) => [op.operation_id, op]));
      // Our extensions (marked x-postline-extension in the document) are not the contract's.
      for (const op of operations.filter((o) => !o.extension)) {
        const expected = byId.get(op.operationId);
        expect({ operationId: op.operationId, known: Boolean(expected) }).toEqual({ operationId: op.operationId, known: true });
        expect({
          operationId: op.operationId,
          method: op.method,
          path: op.path,
          required_scopes: op.requiredScopes ?? [],
          auth_required: Boolean(op.security?.length),
        }).toEqual({
          operationId: op.operationId,
          method: expected!.method,
          path: expected!.path,
          required_scopes: expected!.required_scopes,
          auth_required: expected!.auth_required,
        });
      }
      for (const id of PLATFORM_OPERATIONS) expect(operations.map((op) => op.operationId)).toContain(id);
    });
  });

  describe('GET /v1/capabilities', () => {
    it('needs a bearer credential but no scope', async () => {
      const none = await http().get('/v1/capabilities').expect(401);
      expect(none.body.error.code).toBe('missing_credential');
      const narrow = await h.keyWith(['subscribers:read']);
      await h.as(narrow).get('/v1/capabilities').expect(200);
    });

    it('matches its published schema exactly (no missing or extra keys) and the contract field lists', async () => {
      const res = await h.as().get('/v1/capabilities').expect(200);
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema({ $id: 'openapi', components: { schemas: closed(document.components.schemas) } });
      const validate = ajv.compile({ $ref: 'openapi#/components/schemas/CapabilitiesResponseDto' });
      expect(validate(res.body) ? [] : validate.errors).toEqual([]);

      const data = res.body.data;
      expect(Object.keys(res.body)).toEqual(['data']);
      expect(Object.keys(data)).toEqual([
        'version',
        'workspace',
        'authentication',
        'credential',
        'discovery',
        'sdks',
        'mcp',
        'conventions',
        'capability_mode',
        'limitations',
        'events',
        'resources',
      ]);
      expect(data.version).toBe('v1');
      expect(data.workspace).toEqual({ id: h.workspaceId, name: 'Test workspace' });
      expect(data.capability_mode).toBe('effective');
      // Every advertised feature is offered, and this key's operations need no delivery connection.
      expect(data.limitations).toEqual([]);
      expect(Object.keys(data.credential).sort()).toEqual(
        ['type', 'id', 'name', 'status', 'scopes', 'key_preview', 'expires_at', 'last_used_at', 'revoked_at', 'created_at', 'updated_at'].sort(),
      );
      expect(data.credential).toMatchObject({ type: 'workspace_api_key', status: 'active', scopes: data.authentication.scopes_supported });
      expect(data.authentication).toEqual({
        type: 'bearer',
        header_name: 'Authorization',
        header_value_prefix: 'Bearer ',
        workspace_scoped: true,
        scopes_supported: expect.arrayContaining(['analytics:read', 'webhooks:write']),
        supported_credential_types: ['workspace_api_key', 'oauth_access_token'],
      });
      expect(data.authentication.scopes_supported).toHaveLength(33);
      expect(Object.keys(data.discovery)).toHaveLength(13);
      expect(data.discovery).not.toHaveProperty('capabilities_url');
      expect(data.discovery.openapi_url).toBe(`${PUBLIC_BASE_URL}/v1/openapi.json`);
      expect(data.sdks.typescript).toEqual({ package_name: '@mailrith/sdk', docs_url: expect.any(String), language: 'typescript' });
      expect(data.sdks.python).toEqual({ package_name: 'mailrith-sdk', docs_url: expect.any(String), language: 'python' });
      expect(data.mcp).toEqual({
        package_name: '@mailrith/mcp-server',
        docs_url: expect.any(String),
        server_url: `${PUBLIC_BASE_URL}/mcp`,
        recommended_transport: 'streamable_http',
        supported_transports: ['streamable_http', 'stdio'],
      });
      expect(data.conventions).toEqual({
        pagination_type: 'cursor',
        pagination_limit_param: 'limit',
        pagination_cursor_param: 'starting_after',
        idempotency_header: 'Idempotency-Key',
      });
      expect(data.events.supported_events).toHaveLength(9);
      expect(data.events.supported_event_patterns).toHaveLength(15);
      expect(data.events.supported_event_patterns.slice(0, 6)).toEqual(['*', 'subscriber.*', 'form.*', 'landing_page.*', 'broadcast.*', 'automation.*']);
      expect(data.events.supported_event_patterns.slice(6)).toEqual(data.events.supported_events);
      expect(data.events.signing).toEqual({
        algorithm: 'hmac-sha256',
        id_header: 'webhook-id',
        timestamp_header: 'webhook-timestamp',
        signature_header: 'webhook-signature',
        signature_prefix: 'v1',
      });
    });

    it('lists, for an all-scopes key, every implemented operation except the platform ones, in published resource order', async () => {
      const { body } = await h.as().get('/v1/capabilities').expect(200);
      const resources = body.data.resources as Array<{ key: string; name: string; operations: Array<Record<string, unknown>> }>;
      const listed = resources.flatMap((r) => r.operations.map((op) => op.operation_id as string));
      expect(listed.sort()).toEqual(callableWith(body.data.credential.scopes));
      expect(listed).toContain('getWorkspace');
      for (const id of PLATFORM_OPERATIONS) expect(listed).not.toContain(id);

      const order = API_RESOURCE_GROUPS.map((group) => group.key);
      const keys = resources.map((r) => r.key);
      for (const key of keys) expect(order).toContain(key);
      expect([...keys].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(keys);
      for (const resource of resources) {
        expect(resource.operations.length).toBeGreaterThan(0);
        for (const op of resource.operations) {
          expect(Object.keys(op)).toEqual(['method', 'path', 'operation_id', 'summary', 'required_scopes']);
          const documented = operations.find((o) => o.operationId === op.operation_id)!;
          expect(op).toEqual({
            method: documented.method,
            path: documented.path,
            operation_id: documented.operationId,
            summary: documented.summary,
            required_scopes: documented.requiredScopes,
          });
        }
      }
      expect(resources.find((r) => r.key === 'workspace')).toMatchObject({
        name: 'Workspace',
        operations: [expect.objectContaining({ operation_id: 'getWorkspace' })],
      });
    });

    it('shows a narrow key only the operations its scopes allow, and omits empty resources', async () => {
      for (const scopes of [['workspace:read'], ['subscribers:read'], ['tags:read', 'tags:write']]) {
        const key = await h.keyWith(scopes);
        const { body } = await h.as(key).get('/v1/capabilities').expect(200);
        const resources = body.data.resources as Array<{ key: string; operations: Array<{ operation_id: string; required_scopes: string[] }> }>;
        const listed = resources.flatMap((r) => r.operations.map((op) => op.operation_id)).sort();
        expect({ scopes, listed }).toEqual({ scopes, listed: callableWith(scopes) });
        for (const resource of resources) {
          expect(resource.operations.length).toBeGreaterThan(0);
          for (const op of resource.operations) for (const scope of op.required_scopes) expect(scopes).toContain(scope);
        }
        expect(body.data.credential.scopes).toEqual(scopes);
      }
      const workspaceOnly = await h.keyWith(['workspace:read']);
      const { body } = await h.as(workspaceOnly).get('/v1/capabilities').expect(200);
      expect(body.data.resources.map((r: { key: string }) => r.key)).toContain('workspace');
      expect(body.data.resources.map((r: { key: string }) => r.key)).not.toContain('subscribers');
      const subscribersOnly = await h.keyWith(['subscribers:read']);
      const other = await h.as(subscribersOnly).get('/v1/capabilities').expect(200);
      expect(other.body.data.resources.map((r: { key: string }) => r.key)).not.toContain('workspace');
    });
  });

  describe('llms files and the API catalog', () => {
    it('serves /llms.txt as public markdown text generated from the document', async () => {
      const res = await http().get('/llms.txt').expect(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).toMatch(/^# .+\n\n> /);
      expect(res.text).toContain('## Authentication');
      expect(res.text).toContain('## Conventions');
      expect(res.text).toContain('## Workspace');
      expect(res.text).toContain('- `GET /v1/workspace`: Get the current workspace (scopes: `workspace:read`)');
      for (const op of operations) expect(res.text).toContain(`\`${op.method} ${op.path}\``);
      expect(res.text).toContain(`(${PUBLIC_BASE_URL}/llms-full.txt)`);
    });

    it('serves /llms-full.txt with parameters and request and response fields', async () => {
      const res = await http().get('/llms-full.txt').expect(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).toContain('### GET /v1/workspace');
      expect(res.text).toContain('- Operation ID: `getWorkspace`');
      expect(res.text).toContain('- `time_zone` (string or null, required)');
      expect(res.text).toContain('## Error body');
      for (const op of operations) expect(res.text).toContain(`### ${op.method} ${op.path}\n`);
    });

    it('serves the RFC 9727 API catalog as a linkset, with a Link header on GET and HEAD', async () => {
      const res = await http().get('/.well-known/api-catalog').expect(200);
      expect(res.headers['content-type']).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
      expect(res.headers.link).toBe(`<${PUBLIC_BASE_URL}/.well-known/api-catalog>; rel="api-catalog"`);
      const body = JSON.parse(res.text);
      expect(body.linkset[0]).toEqual({
        anchor: `${PUBLIC_BASE_URL}/.well-known/api-catalog`,
        item: [expect.objectContaining({ href: `${PUBLIC_BASE_URL}/v1` })],
      });
      expect(body.linkset[1]).toMatchObject({
        anchor: `${PUBLIC_BASE_URL}/v1`,
        'service-desc': [{ href: `${PUBLIC_BASE_URL}/v1/openapi.json`, type: expect.any(String) }],
        'service-doc': expect.arrayContaining([{ href: `${PUBLIC_BASE_URL}/docs`, type: 'text/html' }]),
        'service-meta': [{ href: `${PUBLIC_BASE_URL}/v1`, type: 'application/json' }],
      });
      const head = await http().head('/.well-known/api-catalog').expect(200);
      expect(head.headers.link).toBe(`<${PUBLIC_BASE_URL}/.well-known/api-catalog>; rel="api-catalog"`);
    });
  });
});
