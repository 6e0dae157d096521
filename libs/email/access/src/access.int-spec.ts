import { EmailPrisma } from '@email/data-access';
import { AuthChange, AuthChangeBus, AuthRedis, Principal } from '@shared/auth';
import { AppConfig } from '@shared/config';
import { Clock, IdGenerator } from '@shared/core';
import { DomainError } from '@shared/errors';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';
import { API_KEY_PREFIX, hashApiKey } from './api-key-secret';
import { credentialView, EmailCredentialVerifier } from './credential-verifier';
import { EMAIL_SCOPES } from './scopes';

/** A clock the test moves by hand. */
class ManualClock extends Clock {
  current = new Date('2026-06-01T12:00:00.000Z');
  override now(): Date {
    return new Date(this.current);
  }
}

/** Waits up to a second for something done in the background (a published message, a fire-and-forget write). */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await done()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('email access (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let redis: AuthRedis;
  let bus: AuthChangeBus;
  let service: AccessService;
  let verifier: EmailCredentialVerifier;
  const clock = new ManualClock();
  const changes: (AuthChange | null)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('email');
    const config = {
      emailDatabaseUrl: db.url,
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      queuePrefix: uniqueQueuePrefix(),
      authChangeCheckMs: 60_000,
      appBaseUrl: 'https://app.example.test',
      docsBaseUrl: 'https://docs.example.test',
    } as AppConfig;
    prisma = new EmailPrisma(config);
    redis = new AuthRedis(config);
    bus = new AuthChangeBus(config, redis);
    const repository = new AccessRepository(prisma);
    service = new AccessService(repository, new IdGenerator(), clock, bus);
    verifier = new EmailCredentialVerifier(repository, clock, config);
    bus.listen('email', (change) => changes.push(change));
  });

  afterAll(async () => {
    await bus?.onModuleDestroy();
    await redis?.onModuleDestroy();
    await prisma?.$disconnect();
    await db?.drop();
  });

  const refusalOf = (promise: Promise<unknown>) =>
    promise.then(
      () => Promise.reject(new Error('expected a refusal')),
      (error: DomainError) => error,
    );

  describe('createWorkspace', () => {
    it('creates the workspace, trimmed, with an all-scopes default key stored only as a hash', async () => {
      const created = await service.createWorkspace('  Acme  ');
      expect(created.workspace_id).toMatch(/^wsp_/);
      expect(created.api_key_id).toMatch(/^key_/);
      expect(created.api_key).toMatch(new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`));
      const workspace = await prisma.workspace.findUniqueOrThrow({ where: { id: created.workspace_id } });
      expect(workspace.name).toBe('Acme');
      const key = await prisma.apiKey.findUniqueOrThrow({ where: { id: created.api_key_id } });
      expect(key).toMatchObject({
        workspace_id: created.workspace_id,
        name: 'Default key',
        secret_hash: hashApiKey(created.api_key),
        key_preview: `${API_KEY_PREFIX}…${created.api_key.slice(-4)}`,
        scopes: [...EMAIL_SCOPES],
        status: 'active',
        expires_at: null,
      });
      expect(JSON.stringify(key)).not.toContain(created.api_key);
    });

    it('refuses a blank name or one longer than 200 characters', async () => {
      await expect(service.createWorkspace('x'.repeat(200))).resolves.toBeDefined();
      for (const name of ['', '   ', 'x'.repeat(201)]) {
        const error = await refusalOf(service.createWorkspace(name));
        expect([error.status, error.code, error.details]).toEqual([400, 'validation_failed', { field: 'name' }]);
        expect(error.message).toBe('A workspace name of 1-200 characters is required.');
      }
    });
  });

  describe('createApiKey', () => {
    it('issues a key with canonical scopes, its name and expiry', async () => {
      const { workspace_id } = await service.createWorkspace('Keys');
      const expiresAt = new Date(clock.current.getTime() + 60_000);
      const issued = await service.createApiKey(workspace_id, { scopes: ['tags:read', 'subscribers:read', 'tags:read'], name: 'Reporting', expiresAt });
      const key = await prisma.apiKey.findUniqueOrThrow({ where: { id: issued.id } });
      expect(key).toMatchObject({
        name: 'Reporting',
        scopes: ['subscribers:read', 'tags:read'],
        expires_at: expiresAt,
        secret_hash: hashApiKey(issued.api_key),
      });
      const unnamed = await service.createApiKey(workspace_id, { scopes: ['tags:read'] });
      expect(await prisma.apiKey.findUniqueOrThrow({ where: { id: unnamed.id } })).toMatchObject({ name: 'API key', expires_at: null });
    });

    it('validates the request before looking up the workspace, and 404s an unknown workspace', async () => {
      const unknownScope = await refusalOf(service.createApiKey('wsp_missing', { scopes: ['root'] }));
      expect(unknownScope.code).toBe('unknown_scope');
      const past = await refusalOf(service.createApiKey('wsp_missing', { scopes: ['tags:read'], expiresAt: clock.now() }));
      expect(past.details).toEqual({ field: 'expires_at' });
      const missing = await refusalOf(service.createApiKey('wsp_missing', { scopes: ['tags:read'] }));
      expect([missing.status, missing.code]).toEqual([404, 'workspace_not_found']);
    });
  });

  describe('EmailCredentialVerifier.verify', () => {
    it('returns the principal of an active key', async () => {
      const { workspace_id, api_key, api_key_id } = await service.createWorkspace('Verify');
      const principal = await verifier.verify(api_key);
      expect(principal).toMatchObject({
        credentialType: 'workspace_api_key',
        credentialId: api_key_id,
        subjectId: workspace_id,
        scopes: [...EMAIL_SCOPES],
        expiresAt: null,
        credential: { workspace: { id: workspace_id, name: 'Verify' }, view: { id: api_key_id, status: 'active', name: 'Default key' } },
      });
    });

    it('refuses an unknown, revoked, rotated or expired key with its own code', async () => {
      const { workspace_id } = await service.createWorkspace('Refusals');
      const unknown = await refusalOf(verifier.verify(`${API_KEY_PREFIX}nope`));
      expect([unknown.status, unknown.code, unknown.message]).toEqual([401, 'invalid_credential', 'The API key is not valid.']);

      const revoked = await service.createApiKey(workspace_id, { scopes: ['tags:read'] });
      await service.revokeApiKey(revoked.id);
      expect(await refusalOf(verifier.verify(revoked.api_key))).toMatchObject({
        status: 401,
        code: 'credential_revoked',
        message: 'This API key was revoked.',
      });

      const rotated = await service.createApiKey(workspace_id, { scopes: ['tags:read'] });
      await prisma.apiKey.update({ where: { id: rotated.id }, data: { status: 'rotated' } });
      expect(await refusalOf(verifier.verify(rotated.api_key))).toMatchObject({
        code: 'credential_revoked',
        message: 'This API key was replaced by a newer key.',
      });

      const expiring = await service.createApiKey(workspace_id, { scopes: ['tags:read'], expiresAt: new Date(clock.current.getTime() + 1_000) });
      await expect(verifier.verify(expiring.api_key)).resolves.toMatchObject({ credentialId: expiring.id });
      clock.current = new Date(clock.current.getTime() + 1_000);
      expect(await refusalOf(verifier.verify(expiring.api_key))).toMatchObject({ code: 'credential_expired', message: 'This API key has expired.' });
    });
  });

  describe('revokeApiKey', () => {
    it('revokes once, records when, and tells the replicas', async () => {
      const { workspace_id } = await service.createWorkspace('Revoke');
      const issued = await service.createApiKey(workspace_id, { scopes: ['tags:read'] });
      await service.revokeApiKey(issued.id);
      expect(await prisma.apiKey.findUniqueOrThrow({ where: { id: issued.id } })).toMatchObject({ status: 'revoked', revoked_at: clock.now() });
      await until(async () => changes.some((change) => change?.id === issued.id));
      expect(changes).toContainEqual({ kind: 'credential', id: issued.id });

      const again = await refusalOf(service.revokeApiKey(issued.id));
      expect([again.status, again.code]).toEqual([404, 'api_key_not_found']);
      expect((await refusalOf(service.revokeApiKey('key_missing'))).code).toBe('api_key_not_found');
    });
  });

  describe('markUsed', () => {
    it('stamps last_used_at on first use', async () => {
      const { api_key } = await service.createWorkspace('Used');
      const principal: Principal = await verifier.verify(api_key);
      verifier.markUsed(principal);
      const lastUsedAt = async () => (await prisma.apiKey.findUniqueOrThrow({ where: { id: principal.credentialId } })).last_used_at;
      await until(async () => (await lastUsedAt()) !== null);
      expect(await lastUsedAt()).toEqual(clock.now());
    });
  });
});

describe('credentialView', () => {
  const key = {
    id: 'key_1',
    workspace_id: 'wsp_1',
    name: 'Main',
    secret_hash: 'h',
    key_preview: 'mrk_…abcd',
    scopes: ['tags:read', 'analytics:read'],
    status: 'active' as const,
    expires_at: null as Date | null,
    last_used_at: null as Date | null,
    revoked_at: null as Date | null,
    created_at: new Date('2026-01-01T00:00:00.000Z'),
    updated_at: new Date('2026-01-02T00:00:00.000Z'),
    workspace: { id: 'wsp_1', name: 'W' },
  };
  const now = new Date('2026-06-01T00:00:00.000Z');

  it('shows the key with canonical scopes and ISO dates, never the hash', () => {
    const view = credentialView({ ...key, last_used_at: new Date('2026-05-01T00:00:00.000Z') }, now);
    expect(view).toEqual({
      type: 'workspace_api_key',
      id: 'key_1',
      name: 'Main',
      status: 'active',
      scopes: ['analytics:read', 'tags:read'],
      key_preview: 'mrk_…abcd',
      expires_at: null,
      last_used_at: '2026-05-01T00:00:00.000Z',
      revoked_at: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-02T00:00:00.000Z',
    });
  });

  it('calls an active key past its expiry expired, at the very instant, and leaves other statuses alone', () => {
    expect(credentialView({ ...key, expires_at: now }, now).status).toBe('expired');
    expect(credentialView({ ...key, expires_at: new Date(now.getTime() + 1) }, now)).toMatchObject({
      status: 'active',
      expires_at: '2026-06-01T00:00:00.001Z',
    });
    expect(credentialView({ ...key, status: 'revoked', expires_at: now, revoked_at: now }, now)).toMatchObject({
      status: 'revoked',
      revoked_at: '2026-06-01T00:00:00.000Z',
    });
  });
});
