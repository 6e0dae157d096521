import { AppConfig } from '@shared/config';
import { DomainError, SharedErrors } from '@shared/errors';
import { uniqueQueuePrefix } from '@shared/testing';
import { AuthChangeBus, AuthRedis } from './auth-changes';
import { BearerStrategy } from './bearer.strategy';
import { FailedAuthLimiter } from './failed-authentication';
import { CredentialVerifier, Principal } from './principal';

const principal = (credentialId: string, subjectId = 'wsp_1'): Principal => ({
  credentialType: 'workspace_api_key',
  credentialId,
  subjectId,
  scopes: [],
  expiresAt: null,
  credential: {},
});

/** A verifier over a fixed token table that counts its (database) lookups and marks. */
class TableVerifier implements CredentialVerifier {
  readonly authService = 'email' as const;
  lookups = 0;
  marked: string[] = [];
  constructor(readonly table: Map<string, Principal>) {}
  async verify(token: string): Promise<Principal> {
    this.lookups++;
    const found = this.table.get(token);
    if (!found) throw SharedErrors.fail('invalid_credential', 'The API key is not valid.');
    return found;
  }
  insufficientScope(): DomainError {
    return new DomainError('permission_error', 'insufficient_scope', 'no');
  }
  markUsed(p: Principal): void {
    this.marked.push(p.credentialId);
  }
}

describe('BearerStrategy (real Redis)', () => {
  const opened: { bus: AuthChangeBus; redis: AuthRedis }[] = [];

  function strategy(overrides: Partial<AppConfig> = {}) {
    const config = {
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      queuePrefix: uniqueQueuePrefix(),
      authChangeCheckMs: 60_000,
      authCacheTtlMs: 60_000,
      authNegativeCacheTtlMs: 60_000,
      authFailureLimit: 3,
      authFailureWindowSeconds: 60,
      ...overrides,
    } as AppConfig;
    const redis = new AuthRedis(config);
    const bus = new AuthChangeBus(config, redis);
    opened.push({ bus, redis });
    const verifier = new TableVerifier(
      new Map([
        ['good', principal('key_good')],
        ['other', principal('key_other')],
      ]),
    );
    return { verifier, bus, bearer: new BearerStrategy(verifier, config, new FailedAuthLimiter(redis, config), bus) };
  }

  afterAll(async () => {
    for (const { bus, redis } of opened) {
      await bus.onModuleDestroy();
      await redis.onModuleDestroy();
    }
  });

  const refusalOf = (promise: Promise<unknown>) =>
    promise.then(
      () => Promise.reject(new Error('expected a refusal')),
      (error: DomainError) => error,
    );

  it('verifies once, then serves the cached principal, marking every use', async () => {
    const { verifier, bearer } = strategy();
    expect(await bearer.validate({ ip: '192.0.2.1' }, 'good')).toEqual(principal('key_good'));
    expect(await bearer.validate({ ip: '192.0.2.1' }, 'good')).toEqual(principal('key_good'));
    expect(verifier.lookups).toBe(1);
    expect(verifier.marked).toEqual(['key_good', 'key_good']);
  });

  it('remembers a refusal (no second lookup) and limits failures per address', async () => {
    const { verifier, bearer } = strategy();
    for (let i = 0; i < 3; i++) expect((await refusalOf(bearer.validate({ ip: '192.0.2.2' }, 'bad'))).code).toBe('invalid_credential');
    expect(verifier.lookups).toBe(1);
    const limited = await refusalOf(bearer.validate({ ip: '192.0.2.2' }, 'other'));
    expect([limited.status, limited.code]).toEqual([429, 'rate_limited']);
    expect(verifier.lookups).toBe(1);
    // A principal already cached still works from the blocked address; another address is not blocked.
    expect((await bearer.validate({ ip: '192.0.2.3' }, 'good')).credentialId).toBe('key_good');
    expect(verifier.marked).toEqual(['key_good']);
  });

  it('does not count or remember errors that are not refusals', async () => {
    const { verifier, bearer } = strategy({ authFailureLimit: 1 });
    verifier.verify = async () => {
      verifier.lookups++;
      throw new Error('database away');
    };
    for (let i = 0; i < 2; i++) expect((await refusalOf(bearer.validate({ ip: '192.0.2.4' }, 'good'))).message).toBe('database away');
    expect(verifier.lookups).toBe(2);
  });

  it('drops the cached principal of a revoked credential only', async () => {
    const { verifier, bearer, bus } = strategy();
    // The bus's first epoch read empties the (still empty) cache; wait for it so it cannot hide what follows.
    await new Promise((resolve) => bus.listen('email', resolve));
    await bearer.validate({ ip: '192.0.2.5' }, 'good');
    await bearer.validate({ ip: '192.0.2.5' }, 'other');
    const lookups = verifier.lookups;
    await bus.publish('email', { kind: 'credential', id: 'key_good' });
    await bus.publish('email', { kind: 'owner', id: 'usr_1' });
    for (let i = 0; i < 200 && verifier.lookups === lookups; i++) {
      await bearer.validate({ ip: '192.0.2.5' }, 'good');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(verifier.lookups).toBe(lookups + 1);
    await bearer.validate({ ip: '192.0.2.5' }, 'other');
    expect(verifier.lookups).toBe(lookups + 1); // an owner (role) change leaves API-key principals cached
  });
});
