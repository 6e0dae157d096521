import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { SqlPool } from '@shared/sql';

/** The forms database's plain pool, for the hot statements (the submission insert, the draft write, upload rows). */
@Injectable()
export class FormsSql extends SqlPool {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super(config.formsDatabaseUrl, config.databaseConnectTimeoutMs);
  }
}
