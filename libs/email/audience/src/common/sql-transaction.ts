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
 */
export class PgTransaction implements SqlTransaction {
  constructor(private readonly client: PoolClient) {}

  readonly outboxEvent = {
    create: async ({ data }: OutboxInsert) => {
      await this.$executeRaw`
        INSERT INTO outbox_events (id, workspace_id, type, payload) VALUES (${data.id}, ${data.workspace_id}, ${data.type}, ${JSON.stringify(data.payload)}::jsonb)`;
    },
  } as unknown as OutboxTransaction['outboxEvent'];

  async $queryRaw<T = unknown>(query: TemplateStringsArray, ...values: unknown[]): Promise<T> {
    return (await this.run(query, values)).rows as T;
  }

  async $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number> {
    return (await this.run(query, values)).rowCount ?? 0;
  }

  private run(query: TemplateStringsArray, values: unknown[]) {
    const statement = Prisma.sql(query, ...(values as Prisma.Sql[]));
    return this.client.query(namedStatement(statement.text, statement.values));
  }
}
