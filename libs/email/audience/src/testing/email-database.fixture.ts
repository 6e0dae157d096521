import { EmailPrisma, EmailSql } from '@email/data-access';
import type { AppConfig } from '@shared/config';
import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase } from '@shared/testing';

export interface EmailTestDatabase {
  /** The client the repositories under test use. */
  prisma(): EmailPrisma;
  /** A second client with its own pool, for probing locks while the first one's transactions wait. */
  observer(): EmailPrisma;
  /** The plain pg pool the repositories' hot statements go through. */
  sql(): EmailSql;
}

/**
 * For repository integration tests: a throw-away email database with the given workspaces, dropped afterwards.
 * Call at describe level.
 */
export function useEmailDatabase(...workspaceIds: WorkspaceId[]): EmailTestDatabase {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let observer: EmailPrisma;
  let sql: EmailSql;
  beforeAll(async () => {
    db = await createTestDatabase('email');
    const config = { emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig;
    prisma = new EmailPrisma(config);
    observer = new EmailPrisma(config);
    sql = new EmailSql(config);
    await prisma.workspace.createMany({ data: workspaceIds.map((id) => ({ id, name: id })) });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await observer?.$disconnect();
    await sql?.onModuleDestroy();
    await db?.drop();
  });
  return { prisma: () => prisma, observer: () => observer, sql: () => sql };
}

/** Workspace A owns the rows a tenancy test aims at; B is the other tenant. */
export const WORKSPACE_A = trustedWorkspaceId('wsp_a');
export const WORKSPACE_B = trustedWorkspaceId('wsp_b');

/**
 * Resolves once `count` sessions of this database wait for a lock (so concurrent writers really overlap), or
 * rejects after about five seconds. Polls through the observer, which does not queue behind the writers' pool.
 */
export async function lockWaiters(observer: EmailPrisma, count: number): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt++) {
    const [{ waiting }] = await observer.$queryRaw<Array<{ waiting: number }>>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} sessions ever waited for a lock`);
}

/** A promise the test settles by hand: `hold` keeps a transaction open until `release()`. */
export function gate(): { hold: Promise<void>; release: () => void } {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  return { hold, release };
}

/**
 * Whether another session could lock the row right now: false while a transaction holds a conflicting lock.
 * `FOR UPDATE NOWAIT` conflicts with every row lock, including the key-share locks repositories take.
 */
export async function rowLockFree(observer: EmailPrisma, table: 'subscribers' | 'tags', id: string): Promise<boolean> {
  try {
    await observer.$transaction((tx) => tx.$queryRawUnsafe(`SELECT 1 FROM ${table} WHERE id = $1 FOR UPDATE NOWAIT`, id));
    return true;
  } catch (error) {
    if (String((error as Error).message).includes('could not obtain lock')) return false;
    throw error;
  }
}
