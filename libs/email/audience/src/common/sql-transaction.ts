import type { PoolClient, QueryConfig } from 'pg';
import { Prisma } from '@email/data-access';
import type { OutboxTransaction } from '@email/events';

/**
 * What the audience writes need from a transaction: parameterised statements written as Prisma.sql templates,
 * and the outbox's insert. A Prisma transaction client has this shape; so has PgTransaction.
 */
export interface SqlTransaction extends OutboxTransaction {
  $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T>;
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number>;
}

type OutboxInsert = { data: { id: string; workspace_id: string; type: string; payload: unknown } };

/** Statement names by text, the same in every connection of this process; bounded, past which statements go out unnamed. */
const statementNames = new Map<string, string>();
const MAX_NAMED_STATEMENTS = 500;

/**
 * The statement as a named one, so each connection parses and plans its text once rather than on every call (the
 * writes' statements are few and fixed, their values all bind parameters).
 */
export function namedStatement(text: string, values: unknown[]): QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) statementNames.set(text, (name = `audience_${statementNames.size + 1}`));
  return { name, text, values };
}

/**
 * A transaction on one plain node-postgres connection: each statement is a single round trip, without
 * Prisma's per-query engine work, which is most of a subscriber write's cost, and named (prepared once per connection).
 * Writes whose result nobody reads (outbox inserts, tag counters) can be deferred: they go out as data-modifying CTEs
 * in front of the next statement sent with `queryWithDeferred`, or on their own before commit (`flush`), so they cost
 * no round trip of their own.
 */
export class PgTransaction implements SqlTransaction {
  private readonly deferred: Prisma.Sql[] = [];

  constructor(private readonly client: PoolClient) {}

  readonly outboxEvent = {
    create: async ({ data }: OutboxInsert) => {
      this.defer(
        Prisma.sql`INSERT INTO outbox_events (id, workspace_id, type, payload) VALUES (${data.id}, ${data.workspace_id}, ${data.type}, ${JSON.stringify(data.payload)}::jsonb)`,
      );
    },
  } as unknown as OutboxTransaction['outboxEvent'];

  async $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T> {
    return (await this.send(Prisma.sql(query, ...(values as Prisma.Sql[])))).rows as T;
  }

  async $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    return (await this.send(Prisma.sql(query, ...(values as Prisma.Sql[])))).rowCount ?? 0;
  }

  /**
   * Queues a write whose result is not read. It runs in this transaction, in the same statement as the next
   * `queryWithDeferred` (which does not see its effect: one statement, one snapshot), and at the latest before commit.
   */
  defer(write: Prisma.Sql): void {
    this.deferred.push(write);
  }

  /** Runs `query` (a statement that does not start with WITH) with the deferred writes in front of it. */
  async queryWithDeferred<T>(query: Prisma.Sql): Promise<T[]> {
    const writes = this.deferred.splice(0);
    const statement = writes.length
      ? Prisma.sql`WITH ${Prisma.join(
          writes.map((write, i) => Prisma.sql`${Prisma.raw(`deferred_${i}`)} AS (${write})`),
          ', ',
        )} ${query}`
      : query;
    return (await this.send(statement)).rows as T[];
  }

  /** Sends the writes still deferred; the transaction's owner calls it before commit. */
  async flush(): Promise<void> {
    if (this.deferred.length) await this.queryWithDeferred(Prisma.sql`SELECT 1`);
  }

  private send(statement: Prisma.Sql) {
    return this.client.query(namedStatement(statement.text, statement.values));
  }
}
