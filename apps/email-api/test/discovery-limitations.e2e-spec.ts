import { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { createTestApp, createTestDatabase, TestDatabase } from '@shared/testing';
import { AccessService } from '@email/access';
import { EmailPrisma } from '@email/data-access';
import { AppModule, EMAIL_HTTP_OPTIONS } from '../src/app.module';

describe('email-api: capabilities withhold email-sending operations without an enabled delivery connection', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let prisma: EmailPrisma;
  let workspaceId: string;
  let fullKey: string;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    app = await createTestApp(AppModule, { EMAIL_DATABASE_URL: db.url, AUTH_CACHE_TTL_MS: '0', APP_BASE_URL: 'https://app.example.test' }, EMAIL_HTTP_OPTIONS);
    prisma = app.get(EmailPrisma);
    const created = await app.get(AccessService).createWorkspace('Acme');
    workspaceId = created.workspace_id;
    fullKey = created.api_key;
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const capabilities = async (key = fullKey) => {
    const res = await request(app.getHttpServer()).get('/v1/capabilities').set('authorization', `Bearer ${key}`).expect(200);
    // The delivery limitations only: the features not offered yet are listed for every credential (advertised-urls.e2e-spec).
    const data = { ...res.body.data, limitations: res.body.data.limitations.filter((l: { code: string }) => l.code.startsWith('email_delivery_')) };
    const listed: string[] = data.resources.flatMap((r: { operations: Array<{ operation_id: string }> }) => r.operations.map((op) => op.operation_id));
    return { data, listed };
  };

  const connection = (id: string, enabled: boolean) =>
    prisma.deliveryConnection.create({
      data: { id, workspace_id: workspaceId, name: id, provider: 'custom-smtp', from_email: 'news@example.com', from_name: 'News', enabled },
    });

  it('reports email_delivery_connection_missing and withholds createBroadcast when the workspace has no connection', async () => {
    const { data, listed } = await capabilities();
    expect(listed).toContain('listBroadcasts');
    expect(listed).not.toContain('createBroadcast');
    expect(data.limitations).toEqual([
      {
        code: 'email_delivery_connection_missing',
        message: expect.any(String),
        affected_operation_ids: ['createBroadcast'],
        setup_url: `https://app.example.test/email-delivery-connections?workspace=${workspaceId}`,
      },
    ]);
    expect(data.resources.find((r: { key: string }) => r.key === 'broadcasts')).toMatchObject({ name: 'Broadcasts' });
  });

  it('reports nothing to a credential that could not call the withheld operation anyway', async () => {
    const { api_key } = await app.get(AccessService).createApiKey(workspaceId, { scopes: ['broadcasts:read'] });
    const { data, listed } = await capabilities(api_key);
    expect(data.limitations).toEqual([]);
    expect(listed).toEqual(['listBroadcasts', 'getBroadcast', 'preflightBroadcast', 'getBroadcastSendProgress', 'listBroadcastDeliveryErrors']);
  });

  it('reports email_delivery_connection_disabled while every connection is disabled', async () => {
    await connection('edc_disabled', false);
    const { data, listed } = await capabilities();
    expect(listed).not.toContain('createBroadcast');
    expect(data.limitations).toEqual([expect.objectContaining({ code: 'email_delivery_connection_disabled', affected_operation_ids: ['createBroadcast'] })]);
  });

  it('lists createBroadcast and no limitation once a connection is enabled', async () => {
    await connection('edc_enabled', true);
    const { data, listed } = await capabilities();
    expect(data.limitations).toEqual([]);
    expect(listed).toEqual(expect.arrayContaining(['listBroadcasts', 'createBroadcast']));
    const broadcasts = data.resources.find((r: { key: string }) => r.key === 'broadcasts');
    expect(broadcasts.operations.map((op: { operation_id: string }) => op.operation_id)).toEqual(expect.arrayContaining(['listBroadcasts', 'createBroadcast']));
  });
});
