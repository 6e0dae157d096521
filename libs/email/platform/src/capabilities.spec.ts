import { ApiOperationInfo } from './api-operations';
import { CapabilitiesCaller, CapabilitiesCatalog } from './capabilities';

const op = (method: string, path: string, operationId: string, requiredScopes: string[], isPublic = false): ApiOperationInfo => ({
  method,
  path,
  operationId,
  summary: `${operationId} summary`,
  tags: [],
  isPublic,
  requiredScopes,
  operation: { responses: {} },
});

const OPERATIONS = [
  op('GET', '/v1', 'getPublicApiMeta', [], true),
  op('GET', '/v1/capabilities', 'getPublicApiCapabilities', []),
  op('GET', '/v1/openapi.json', 'getPublicApiOpenApiDocument', [], true),
  op('GET', '/v1/tags', 'listTags', ['tags:read']),
  op('POST', '/v1/broadcasts', 'createBroadcast', ['broadcasts:write']),
  op('GET', '/v1/subscribers', 'listSubscribers', ['subscribers:read']),
  op('POST', '/v1/subscribers', 'upsertSubscriber', ['live_actions:write', 'subscribers:write']),
  op('GET', '/v1/workspace', 'getWorkspace', ['workspace:read']),
  op('GET', '/v1/gadgets', 'listGadgets', []),
];

const config = { publicBaseUrl: 'https://api.example.com', docsBaseUrl: 'https://docs.example.com', appBaseUrl: 'https://app.example.com' };

const caller = (scopes: string[]): CapabilitiesCaller => ({
  credential: {
    type: 'workspace_api_key',
    id: 'key_1',
    name: 'k',
    status: 'active',
    scopes,
    key_preview: 'mrk_…abcd',
    expires_at: null,
    last_used_at: null,
    revoked_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  },
  workspace: { id: 'wsp_1', name: 'Acme' },
  scopes,
});

const delivery = (doc: { limitations: Array<{ code: string }> }) => doc.limitations.filter((l) => l.code.startsWith('email_delivery_'));

const ids = (resources: Array<{ operations: Array<{ operation_id: string }> }>) => resources.flatMap((r) => r.operations.map((o) => o.operation_id));

describe('CapabilitiesCatalog', () => {
  const catalog = new CapabilitiesCatalog(OPERATIONS, config);

  it('lists callable operations grouped in published order, platform operations left out, unknown groups last', () => {
    const all = ['tags:read', 'broadcasts:write', 'subscribers:read', 'subscribers:write', 'live_actions:write', 'workspace:read'];
    const doc = catalog.build(caller(all));
    expect(doc.resources.map((r) => r.key)).toEqual(['workspace', 'subscribers', 'tags', 'broadcasts', 'gadgets']);
    expect(ids(doc.resources)).not.toEqual(expect.arrayContaining(['getPublicApiMeta']));
    expect(doc.resources[1]).toEqual({
      key: 'subscribers',
      name: 'Subscribers',
      description: expect.any(String),
      operations: [
        { method: 'GET', path: '/v1/subscribers', operation_id: 'listSubscribers', summary: 'listSubscribers summary', required_scopes: ['subscribers:read'] },
        {
          method: 'POST',
          path: '/v1/subscribers',
          operation_id: 'upsertSubscriber',
          summary: 'upsertSubscriber summary',
          required_scopes: ['live_actions:write', 'subscribers:write'],
        },
      ],
    });
  });

  it('needs every required scope and leaves out empty resources', () => {
    const doc = catalog.build(caller(['subscribers:write']));
    expect(ids(doc.resources)).toEqual(['listGadgets']);
    expect(ids(catalog.build(caller(['subscribers:read', 'subscribers:write'])).resources)).toEqual(['listSubscribers', 'listGadgets']);
  });

  it('withholds gated operations only when the connection is not enabled, and explains why', () => {
    expect(catalog.gatedFor(['tags:read'])).toEqual([]);
    expect(catalog.gatedFor(['broadcasts:write'])).toEqual(['createBroadcast']);
    const missing = catalog.build(caller(['broadcasts:write']), 'missing');
    expect(ids(missing.resources)).toEqual(['listGadgets']);
    expect(delivery(missing)).toEqual([
      {
        code: 'email_delivery_connection_missing',
        message: expect.any(String),
        affected_operation_ids: ['createBroadcast'],
        setup_url: 'https://app.example.com/email-delivery-connections?workspace=wsp_1',
      },
    ]);
    expect(catalog.build(caller(['broadcasts:write']), 'disabled').limitations[0].code).toBe('email_delivery_connection_disabled');
    expect(delivery(catalog.build(caller(['broadcasts:write']), 'enabled'))).toEqual([]);
    expect(delivery(catalog.build(caller(['tags:read']), 'missing'))).toEqual([]);
  });

  it('lists no feature as not offered yet once OAuth is served', () => {
    expect(catalog.build(caller(['tags:read']), 'missing').limitations).toEqual([]);
    expect(catalog.build(caller(['broadcasts:write']), 'missing').limitations.map((l) => l.code)).toEqual(['email_delivery_connection_missing']);
  });

  it('narrows resources to an MCP selection and says which toolsets, operations and mode are active', () => {
    const all = ['tags:read', 'broadcasts:write', 'subscribers:read', 'subscribers:write', 'live_actions:write', 'workspace:read'];
    expect(catalog.build(caller(all)).mcp).not.toHaveProperty('active_toolsets');
    const readOnly = catalog.build(caller(all), 'enabled', { toolsets: ['subscriber_management'], operationIds: null, readOnly: true });
    expect(ids(readOnly.resources)).toEqual(['getWorkspace', 'listSubscribers', 'listTags']);
    expect(readOnly.mcp).toMatchObject({
      active_toolsets: ['subscriber_management'],
      // listGadgets is no contract operation, createBroadcast is outside the toolset, upsertSubscriber writes.
      active_operation_ids: ['getPublicApiMeta', 'getPublicApiCapabilities', 'getPublicApiOpenApiDocument', 'listTags', 'listSubscribers', 'getWorkspace'],
      read_only: true,
    });
    const picked = catalog.build(caller(all), 'enabled', { toolsets: ['full_email_marketing_access'], operationIds: ['upsertSubscriber'], readOnly: false });
    expect(ids(picked.resources)).toEqual(['upsertSubscriber']);
    expect(picked.mcp.active_operation_ids).toEqual(['upsertSubscriber']);
  });

  it('considers only gated operations the app implements', () => {
    const without = new CapabilitiesCatalog(
      OPERATIONS.filter((o) => o.operationId !== 'createBroadcast'),
      config,
    );
    expect(without.gatedFor(['broadcasts:write', 'sequences:write'])).toEqual([]);
  });

  it('reuses the resources computed for a scope set', () => {
    const a = catalog.build(caller(['tags:read', 'workspace:read']));
    const b = catalog.build(caller(['workspace:read', 'tags:read']));
    expect(b.resources).toBe(a.resources);
  });

  it('fills the fixed parts from the configuration', () => {
    const doc = catalog.build(caller([]));
    expect(doc.capability_mode).toBe('effective');
    expect(doc.discovery.openapi_url).toBe('https://api.example.com/v1/openapi.json');
    expect(doc.discovery).not.toHaveProperty('capabilities_url');
    expect(doc.discovery).not.toHaveProperty('version');
    expect(doc.mcp).not.toHaveProperty('active_toolsets');
    expect(doc.events.subscriptions_url).toBe('https://api.example.com/v1/webhook-subscriptions');
    expect(doc.authentication.scopes_supported).toHaveLength(33);
  });
});
