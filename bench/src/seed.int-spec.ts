import { createWorkspaceWithKey } from './access';
import { useTestDatabase } from '@shared/testing';
import { seedSubscribers, SeedParams } from './seed';

describe('seedSubscribers (PostgreSQL)', () => {
  const db = useTestDatabase('email');
  const base = { years: 3, seed: 1, batchRows: 700, log: () => undefined };

  const indexes = async () =>
    (
      await db.client.query<{ name: string; valid: boolean }>(
        `SELECT i.relname AS name, x.indisvalid AS valid FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE x.indrelid = 'subscribers'::regclass ORDER BY 1`,
      )
    ).rows;

  it.each<[SeedParams['indexMode'], SeedParams['fkMode']]>([
    ['rebuild', 'once'],
    ['keep', 'per-row'],
  ])('loads rows (indexes %s, fk check %s) and keeps every index', async (indexMode, fkMode) => {
    const before = await indexes();
    const { workspace_id: workspaceId } = await createWorkspaceWithKey(db.url, `Seed ${indexMode}`);
    const result = await seedSubscribers({ ...base, url: db.url, workspaceId, count: 2_500, indexMode, fkMode });
    expect(result).toMatchObject({ rows: 2_500, indexes: indexMode, fk_check: fkMode, first_email: 'user0@seed.example' });
    expect(await indexes()).toEqual(before);
    expect(before.map((i) => i.name)).toContain('subscribers_workspace_id_email_key');
    expect(before.every((i) => i.valid)).toBe(true);

    const { rows } = await db.client.query<{ n: string; emails: string; ordered: boolean }>(
      `SELECT count(*) AS n, count(DISTINCT email) AS emails,
              bool_and(id_order = time_order) AS ordered
         FROM (SELECT email, row_number() OVER (ORDER BY id) AS id_order, row_number() OVER (ORDER BY created_at, id) AS time_order
                 FROM subscribers WHERE workspace_id = $1) s`,
      [workspaceId],
    );
    expect(rows[0]).toEqual({ n: '2500', emails: '2500', ordered: true });
  });

  it('continues the email numbering of a workspace and leaves the session settings alone', async () => {
    const { workspace_id: workspaceId } = await createWorkspaceWithKey(db.url, 'Seed twice');
    await seedSubscribers({ ...base, url: db.url, workspaceId, count: 300, indexMode: 'auto', fkMode: 'auto' });
    const second = await seedSubscribers({ ...base, url: db.url, workspaceId, count: 200, indexMode: 'auto', fkMode: 'auto' });
    expect(second.first_email).toBe('user300@seed.example');
    const { rows } = await db.client.query<{ n: string }>('SELECT count(*) AS n FROM subscribers WHERE workspace_id = $1', [workspaceId]);
    expect(rows[0].n).toBe('500');
  });

  it('refuses an unknown workspace', async () => {
    await expect(seedSubscribers({ ...base, url: db.url, workspaceId: 'wsp_MISSING', count: 10, indexMode: 'keep', fkMode: 'auto' })).rejects.toThrow(
      /does not exist/,
    );
  });
});
