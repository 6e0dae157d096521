import { Client } from 'pg';
import type { AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { FormsPrisma } from '../forms-prisma.service';
import { FormsSql } from '../forms-sql.service';

/** Workspace A owns the rows a tenancy test aims at; B is the other tenant. */
export const WORKSPACE_A = trustedWorkspaceId('wrk_a');
export const WORKSPACE_B = trustedWorkspaceId('wrk_b');

export interface FormsTestDatabase {
  url(): string;
  /** The clients the repositories under test use. */
  prisma(): FormsPrisma;
  sql(): FormsSql;
}

/**
 * For repository integration tests: a throw-away forms database holding workspaces A and B, dropped afterwards.
 * Call at describe level.
 */
export function useFormsDatabase(): FormsTestDatabase {
  let db: TestDatabase;
  let prisma: FormsPrisma;
  let sql: FormsSql;
  beforeAll(async () => {
    db = await createTestDatabase('forms');
    const config = { formsDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig;
    prisma = new FormsPrisma(config);
    sql = new FormsSql(config);
    await prisma.workspace.createMany({ data: [WORKSPACE_A, WORKSPACE_B].map((id) => ({ id, name: id })) });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await sql?.onModuleDestroy();
    await db?.drop();
  });
  return { url: () => db.url, prisma: () => prisma, sql: () => sql };
}

/** A form row written straight to the table, for repositories to find (or not). */
export function insertForm(prisma: FormsPrisma, workspaceId: string, id: string, status: 'draft' | 'published' | 'closed' = 'published') {
  return prisma.form.create({
    data: { id, workspace_id: workspaceId, public_id: `pub_${id}`, title: id, status, draft_schema: {}, draft_updated_at: new Date() },
  });
}

/**
 * Locks one row from another session until `release()`, so writers started meanwhile queue behind it and then
 * really run at once. `queued(n)` resolves once n sessions wait for a lock (or rejects after about five seconds).
 */
export async function holdRowLock(url: string, table: 'forms', id: string): Promise<{ queued(count: number): Promise<void>; release(): Promise<void> }> {
  const holder = new Client({ connectionString: url });
  const observer = new Client({ connectionString: url });
  await Promise.all([holder.connect(), observer.connect()]);
  await holder.query('BEGIN');
  await holder.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
  return {
    async queued(count) {
      for (let attempt = 0; attempt < 500; attempt++) {
        const { rows } = await observer.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (rows[0].waiting >= count) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`fewer than ${count} sessions ever waited for the lock`);
    },
    async release() {
      await holder.query('COMMIT');
      await Promise.all([holder.end(), observer.end()]);
    },
  };
}
