import type { AppConfig } from '@shared/config';
import { TransactionDeadlineExceeded } from '@shared/sql';
import { createTestDatabase, TestDatabase, until } from '@shared/testing';
import { EmailSql } from './email-sql.service';

const DEADLINE_MS = 300;
const never = () => new Promise<never>(() => undefined);

/** EmailSql's transaction deadline: a transaction stuck past it is rolled back and gives its connection back. */
describe('EmailSql.transaction deadline (real PostgreSQL)', () => {
  let db: TestDatabase;
  let sql: EmailSql;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    sql = new EmailSql({ emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000, emailSqlTransactionTimeoutMs: DEADLINE_MS } as AppConfig);
    await sql.query({ text: 'CREATE TABLE deadline_probe (id text PRIMARY KEY)' });
  });

  afterAll(async () => {
    await sql?.onModuleDestroy();
    await db?.drop();
  });

  const probeIds = async () => (await sql.query<{ id: string }>({ text: 'SELECT id FROM deadline_probe ORDER BY id' })).map((row) => row.id);

  it('rolls back transactions stuck outside the database and frees every connection of the pool', async () => {
    const stuck = Array.from({ length: 10 }, (_, i) =>
      sql.transaction(async (client) => {
        await client.query({ text: 'INSERT INTO deadline_probe (id) VALUES ($1)', values: [`stuck_${i}`] });
        return never();
      }),
    );
    for (const transaction of stuck) await expect(transaction).rejects.toBeInstanceOf(TransactionDeadlineExceeded);

    await sql.transaction((client) => client.query({ text: `INSERT INTO deadline_probe (id) VALUES ('after')` }));
    expect(await probeIds()).toEqual(['after']);
    await until('no session left idle in a transaction', async () => (await sessions("state = 'idle in transaction'")) === 0);
  });

  it('has the server cancel a statement still running at the deadline', async () => {
    await expect(sql.transaction((client) => client.query(`SELECT pg_sleep(30)`))).rejects.toThrow();
    await until('the sleeping statement cancelled', async () => (await sessions(`query LIKE '%pg_sleep(30)%' AND state = 'active'`)) === 0);
  });

  it('lets a caller that must hold its transaction longer pass its own deadline', async () => {
    const held = await sql.transaction(
      async (client) => {
        await client.query({ text: `INSERT INTO deadline_probe (id) VALUES ('held')` });
        await client.query(`SELECT pg_sleep(${(DEADLINE_MS * 2) / 1000})`);
        return 'committed';
      },
      { timeoutMs: 0 },
    );
    expect(held).toBe('committed');
    expect(await probeIds()).toContain('held');
  });

  /** This database's other sessions in the given state. */
  async function sessions(condition: string): Promise<number> {
    const [row] = await sql.query<{ n: number }>({
      text: `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND ${condition}`,
      values: [db.name],
    });
    return row.n;
  }
});
