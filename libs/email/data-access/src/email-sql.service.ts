import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool, QueryConfig, QueryResultRow } from 'pg';
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

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
