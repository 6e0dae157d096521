import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool, QueryConfig, QueryResultRow } from 'pg';
import { APP_CONFIG, AppConfig } from '@shared/config';

/**
 * A plain node-postgres pool for the few hot statements where Prisma's per-query overhead shows (the submission
 * insert). Statements sent with a `name` are prepared once per connection and not re-planned.
 */
@Injectable()
export class FormsSql implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = new Pool({ connectionString: config.formsDatabaseUrl, max: 10, connectionTimeoutMillis: config.databaseConnectTimeoutMs });
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
