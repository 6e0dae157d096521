import request from 'supertest';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestApp, createTestDatabase, TestDatabase } from '@shared/testing';
import { AccountsService, FORMS_SCOPES } from '@forms/accounts';
import { AppModule } from '../src/app.module';

describe('forms-api: GET /api/v1/me', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let accounts: AccountsService;

  beforeAll(async () => {
    db = await createTestDatabase('forms');
    app = await createTestApp(AppModule, { FORMS_DATABASE_URL: db.url, AUTH_CACHE_TTL_MS: '0' });
    accounts = app.get(AccountsService);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('returns the owner and the key metadata, never the secret', async () => {
    const account = await accounts.createAccount({ email: 'Ada@Example.com', workspaceName: 'Studio' });
    const res = await request(app.getHttpServer()).get('/api/v1/me').set('authorization', `Bearer ${account.api_key}`).expect(200);
    expect(res.body).toEqual({
      owner: { id: account.owner_id, email: 'ada@example.com', username: 'ada', preferred_workspace: null },
      api_key: {
        id: expect.stringMatching(/^key_/),
        name: 'Default key',
        prefix: account.api_key.slice(0, 8),
        last4: account.api_key.slice(-4),
        scopes: [...FORMS_SCOPES],
        last_used_at: null,
        revoked_at: null,
      },
    });
    expect(JSON.stringify(res.body)).not.toContain(account.api_key);
  });

  it('401 for a missing, unknown or revoked key', async () => {
    await request(app.getHttpServer()).get('/api/v1/me').expect(401);
    await request(app.getHttpServer()).get('/api/v1/me').set('authorization', 'Bearer fsk_unknown').expect(401);
    const account = await accounts.createAccount({ email: 'revoked@example.com' });
    const key = await accounts.createApiKey(account.owner_id, { scopes: ['forms:read'] });
    await request(app.getHttpServer()).get('/api/v1/me').set('authorization', `Bearer ${key.api_key}`).expect(200);
    await accounts.revokeApiKey(key.id);
    const res = await request(app.getHttpServer()).get('/api/v1/me').set('authorization', `Bearer ${key.api_key}`).expect(401);
    expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'credential_revoked' });
  });

  it('refuses a second account with the same email (409) and unknown scopes (400)', async () => {
    await accounts.createAccount({ email: 'dup@example.com' });
    await expect(accounts.createAccount({ email: 'DUP@example.com' })).rejects.toMatchObject({ status: 409, code: 'account_exists' });
    const account = await accounts.createAccount({ email: 'scopes@example.com' });
    await expect(accounts.createApiKey(account.owner_id, { scopes: ['forms:everything'] })).rejects.toMatchObject({ status: 400, code: 'unknown_scope' });
  });
});
