import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool, PoolClient, QueryConfig, QueryResultRow } from 'pg';
import { APP_CONFIG, AppConfig } from '@shared/config';

/**
 * A plain node-postgres pool for the hot email statements where Prisma's per-query overhead and re-planning
 * show (the subscriber list). Statements sent with a `name` are prepared once per connection and not re-planned.
 */
@Injectable()
export class EmailSql implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = new Pool({ connectionString: config.emailDatabaseUrl, max: 10, connectionTimeoutMillis: config.databaseConnectTimeoutMs });
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
