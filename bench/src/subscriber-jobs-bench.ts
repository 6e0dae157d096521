import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EmailDataAccessModule } from '@email/data-access';
import { EmailJobsWorkerModule } from '@email/jobs';
import { ConfigModule, loadConfig, SubscriberJobSettings } from '@shared/config';
import { CoreModule } from '@shared/core';

@Module({})
class BenchSubscriberJobsModule {}

/** The email-jobs-worker's import and export code on the bench database, in this process (no queue: jobs are run directly). */
export function subscriberJobsContext(url: string, jobs: Partial<SubscriberJobSettings> & { filesDir: string }): Promise<INestApplicationContext> {
  const base = loadConfig(process.env);
  return NestFactory.createApplicationContext(
    {
      module: BenchSubscriberJobsModule,
      imports: [
        ConfigModule.forRoot({}, { emailDatabaseUrl: url, subscriberJobs: { ...base.subscriberJobs, ...jobs } }),
        CoreModule,
        EmailDataAccessModule,
        EmailJobsWorkerModule,
      ],
    },
    { logger: false },
  );
}

/** Samples this process's RSS until stopped; the peak in MB. */
export function rssPeak(): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.round(Math.max(peak, process.memoryUsage.rss()) / (1024 * 1024));
    },
  };
}
