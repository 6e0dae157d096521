import { DynamicModule, Module } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { DEFAULT_JOB_OPTIONS, queuePrefix } from './queue-options';

/** Registers BullMQ queues (each service names its own) with the shared connection settings, per-queue prefixes and job defaults. */
@Module({})
export class QueueModule {
  static forRoot(): DynamicModule {
    return BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: { url: config.redisUrl, maxRetriesPerRequest: null },
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      }),
    });
  }

  static register(...queues: readonly string[]): DynamicModule {
    return {
      module: QueueModule,
      imports: queues.map((name) =>
        BullModule.registerQueueAsync({
          name,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({ prefix: queuePrefix(config.queuePrefix, name) }),
        }),
      ),
      exports: [BullModule],
    };
  }
}
