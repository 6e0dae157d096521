import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { SqlPool } from '@shared/sql';

/**
 * The email database's plain pool, for the hot statements (the subscriber list, the subscriber upsert transaction).
 * Its transactions are rolled back past EMAIL_SQL_TRANSACTION_TIMEOUT_MS unless the caller passes its own `timeoutMs`.
 */
@Injectable()
export class EmailSql extends SqlPool {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config.emailDatabaseUrl, config.databaseConnectTimeoutMs, config.emailSqlTransactionTimeoutMs);
  }
}
