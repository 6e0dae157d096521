import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { PrismaClient } from './generated/client';

/** The email service's Prisma client over node-postgres. Imported only by email repositories. */
@Injectable()
export class EmailPrisma extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super({
      adapter: new PrismaPg({ connectionString: config.emailDatabaseUrl, max: 10, connectionTimeoutMillis: config.databaseConnectTimeoutMs }),
      // A transaction waits for a pooled connection as long as a query does (Prisma's own default is 2 s).
      transactionOptions: { maxWait: config.databaseConnectTimeoutMs },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
