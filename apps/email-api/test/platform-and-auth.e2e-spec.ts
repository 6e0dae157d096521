import request from 'supertest';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, createTestDatabase, TestDatabase } from '@shared/testing';
import { AccessService } from '@email/access';
import { EmailPrisma } from '@email/data-access';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';

describe('email-api: platform metadata, authentication and scopes', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let access: AccessService;
  let workspaceId: string;
  let fullKey: string;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    app = await createTestApp(
      AppModule,
      {
        EMAIL_DATABASE_URL: db.url,
        PUBLIC_BASE_URL: 'https://mail.example.test/',
        AUTH_CACHE_TTL_MS: '0',
      },
      EMAIL_HTTP_OPTIONS,
    );
    access = app.get(AccessService);
    const created = await access.createWorkspace('Acme');
    workspaceId = created.workspace_id;
    fullKey = created.api_key;
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const http = () => request(app.getHttpServer());

  it('GET /v1 returns every ApiMetadata field, unwrapped and unauthenticated, built from the public base URL', async () => {
    const res = await http().get('/v1').expect(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'version',
        'documentation_url',
        'reference_url',
        'agents_url',
        'sdk_docs_url',
        'typescript_sdk_url',
        'python_sdk_url',
        'mcp_docs_url',
        'mcp_url',
        'llms_url',
        'llms_full_url',
        'openapi_url',
        'capabilities_url',
        'webhook_subscriptions_url',
        'oauth_authorization_server_url',
      ].sort(),
    );
    expect(res.body.version).toBe('v1');
    expect(res.body.openapi_url).toBe('https://mail.example.test/v1/openapi.json');
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('echoes a client request id and ignores unknown headers', async () => {
    const res = await http()
      .get('/v1')
      .set('x-mailrith-request-id', 'req_client-123')
      .set('x-mailrith-client', 'typescript_sdk/dev')
      .set('mailrith-mcp-operation-ids', 'getWorkspace,listSubscribers')
      .expect(200);
    expect(res.headers['x-request-id']).toBe('req_client-123');
    expect(res.headers['x-mailrith-request-id']).toBe('req_client-123');
  });

  it('serves the workspace to a key with workspace:read, under {data}', async () => {
    const res = await http().get('/v1/workspace').set('authorization', `Bearer ${fullKey}`).expect(200);
    expect(res.body.data).toMatchObject({ self: '/v1/workspace', id: workspaceId, name: 'Acme', logo: null, time_zone: null });
    expect(Object.keys(res.body.data)).toHaveLength(12);
  });

  it('401 without a credential, with a malformed header, and with an unknown key', async () => {
    const none = await http().get('/v1/workspace').expect(401);
    expect(none.body).toEqual({ error: { type: 'authentication_error', code: 'missing_credential', message: expect.any(String) } });
    const malformed = await http().get('/v1/workspace').set('authorization', 'Basic abc').expect(401);
    expect(malformed.body.error.code).toBe('invalid_credential');
    const unknown = await http().get('/v1/workspace').set('authorization', 'Bearer mrk_not-a-real-key-0000000000').expect(401);
    expect(unknown.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_credential' });
  });

  it('403 permission_error with the recovery fields when a scope is missing', async () => {
    const { api_key } = await access.createApiKey(workspaceId, { scopes: ['subscribers:read'], name: 'narrow' });
    const res = await http().get('/v1/workspace').set('authorization', `Bearer ${api_key}`).expect(403);
    const error = res.body.error;
    expect(error).toMatchObject({
      type: 'permission_error',
      code: 'insufficient_scope',
      required_scopes: ['workspace:read'],
      missing_scopes: ['workspace:read'],
      replacement_scopes: ['subscribers:read', 'workspace:read'],
      credential_type: 'workspace_api_key',
      reconnect_required: false,
      recovery: { action: 'replace_api_key', replacement_scopes: ['subscribers:read', 'workspace:read'] },
    });
    expect(error.recommended_work_profiles).toContain('full_email_marketing_access');
    expect(error.recommended_work_profiles[0]).toBe('email_delivery_setup');
    expect(() => new URL(error.access_update_url)).not.toThrow();
    expect(() => new URL(error.permissions_help_url)).not.toThrow();
  });

  it('401 for a revoked key, at once when the credential cache is off', async () => {
    const { id, api_key } = await access.createApiKey(workspaceId, { scopes: ['workspace:read'] });
    await http().get('/v1/workspace').set('authorization', `Bearer ${api_key}`).expect(200);
    await access.revokeApiKey(id);
    const res = await http().get('/v1/workspace').set('authorization', `Bearer ${api_key}`).expect(401);
    expect(res.body.error.code).toBe('credential_revoked');
  });

  it('401 for an expired key', async () => {
    const { id, api_key } = await access.createApiKey(workspaceId, { scopes: ['workspace:read'], expiresAt: new Date(Date.now() + 60_000) });
    await http().get('/v1/workspace').set('authorization', `Bearer ${api_key}`).expect(200);
    await app.get(EmailPrisma).apiKey.update({ where: { id }, data: { expires_at: new Date(Date.now() - 1000) } });
    const res = await http().get('/v1/workspace').set('authorization', `Bearer ${api_key}`).expect(401);
    expect(res.body.error.code).toBe('credential_expired');
  });

  it('records last_used_at without a write per request', async () => {
    const { id, api_key } = await access.createApiKey(workspaceId, { scopes: ['workspace:read'] });
    const prisma = app.get(EmailPrisma);
    await http().get('/v1/workspace').set('authorization', `Bearer ${api_key}`).expect(200);
    await new Promise((r) => setTimeout(r, 100));
    const first = (await prisma.apiKey.findUniqueOrThrow({ where: { id } })).last_used_at;
    expect(first).toBeInstanceOf(Date);
    await http().get('/v1/workspace').set('authorization', `Bearer ${api_key}`).expect(200);
    await new Promise((r) => setTimeout(r, 100));
    expect((await prisma.apiKey.findUniqueOrThrow({ where: { id } })).last_used_at).toEqual(first);
  });

  it('404 envelope for an unknown route', async () => {
    const res = await http().get('/v1/nope').set('authorization', `Bearer ${fullKey}`).expect(404);
    expect(res.body.error).toMatchObject({ type: 'not_found', code: 'route_not_found' });
  });

  it('health and readiness', async () => {
    await http().get('/healthz').expect(200, { status: 'ok' });
    const ready = await http().get('/readyz').expect(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });
});
