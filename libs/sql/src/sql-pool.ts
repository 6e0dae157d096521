import { OnModuleDestroy } from '@nestjs/common';
import { Pool, PoolClient, QueryConfig, QueryResultRow } from 'pg';

/**
 * A plain node-postgres pool for a service's hot statements, where Prisma's per-query overhead and re-planning show.
 * Statements sent with a `name` are prepared once per connection and not re-planned. Each service names its own
 * subclass (EmailSql, FormsSql) with its database URL.
 */
export abstract class SqlPool implements OnModuleDestroy {
  private readonly pool: Pool;

  protected constructor(connectionString: string, connectTimeoutMs: number, max = 10) {
    this.pool = new Pool({ connectionString, max, connectionTimeoutMillis: connectTimeoutMs });
    // The pool drops an idle connection the server closed (restart, failover); unhandled, the event would end the process.
    this.pool.on('error', () => undefined);
  }

  async query<Row extends QueryResultRow>(statement: QueryConfig): Promise<Row[]> {
    return (await this.pool.query<Row>(statement)).rows;
  }

  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
      throw error;
    } finally {
      // A connection that could not roll back is closed rather than handed to the next caller.
      client.release(broken);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
