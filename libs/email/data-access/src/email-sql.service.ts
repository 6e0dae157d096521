import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { SqlPool } from '@shared/sql';

/** The email database's plain pool, for the hot statements (the subscriber list, the subscriber upsert transaction). */
@Injectable()
export class EmailSql extends SqlPool {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config.emailDatabaseUrl, config.databaseConnectTimeoutMs);
  }
}
