import type { AuthChangeBus } from '@shared/auth';
import { Clock, IdGenerator } from '@shared/core';
import { useFormsDatabase } from '../../data-access/src/testing/forms-database.fixture';
import { AccountsRepository, NewFormsKey } from './accounts.repository';
import { AccountsService } from './accounts.service';

const key = (id: string): NewFormsKey => ({ id, name: 'k', prefix: 'fsk_abcd', last4: 'wxyz', secret_hash: `hash_${id}`, scopes: [], expires_at: null });

describe('accounts: unique emails and usernames (real PostgreSQL)', () => {
  const db = useFormsDatabase();
  let repository: AccountsRepository;
  let accounts: AccountsService;
  beforeAll(() => {
    repository = new AccountsRepository(db.prisma());
    // Creating accounts publishes no auth change.
    accounts = new AccountsService(repository, new IdGenerator(), new Clock(), {} as AuthChangeBus);
  });
  const owners = () => db.prisma().owner.count();

  it('answers a taken email with 409 account_exists and a taken username with username_taken, writing nothing', async () => {
    expect(await repository.createAccount({ id: 'usr_1', email: 'ann@example.com', username: 'ann' }, { id: 'wrk_1', name: 'W' }, key('key_1'))).toBe(
      'created',
    );
    const before = await owners();
    await expect(
      repository.createAccount({ id: 'usr_2', email: 'ann@example.com', username: 'ann-2' }, { id: 'wrk_2', name: 'W' }, key('key_2')),
    ).rejects.toMatchObject({
      status: 409,
      code: 'account_exists',
      details: { field: 'email' },
    });
    expect(await repository.createAccount({ id: 'usr_3', email: 'other@example.com', username: 'ann' }, { id: 'wrk_3', name: 'W' }, key('key_3'))).toBe(
      'username_taken',
    );
    expect(await owners()).toBe(before);
    expect(await db.prisma().workspace.count({ where: { id: { in: ['wrk_2', 'wrk_3'] } } })).toBe(0);
  });

  it('creates one account for concurrent sign-ups with one email; the others get 409 account_exists', async () => {
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => accounts.createAccount({ email: 'race@example.com' })));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refusals = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as { code?: string }] : []));
    expect(refusals.map((error) => error.code)).toEqual(['account_exists', 'account_exists', 'account_exists', 'account_exists']);
  });

  it('gives concurrent sign-ups with the same name before the @ distinct usernames', async () => {
    const created = await Promise.all(['a', 'b', 'c', 'd'].map((domain) => accounts.createAccount({ email: `sam@${domain}.example.com` })));
    const usernames = await db.prisma().owner.findMany({ where: { id: { in: created.map((account) => account.owner_id) } }, select: { username: true } });
    expect(usernames.map((owner) => owner.username).sort()).toEqual(['sam', 'sam-2', 'sam-3', 'sam-4']);
  });
});
