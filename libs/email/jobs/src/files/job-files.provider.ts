import { APP_CONFIG, AppConfig } from '@shared/config';
import { JobFiles, LocalDiskJobFiles } from './job-files';

/**
 * The JobFiles of SUBSCRIBER_JOB_FILES_STORAGE: local disk (the default) or an S3-compatible bucket. The AWS SDK is
 * loaded only for the bucket, so a process on local disk does not carry it.
 */
export const jobFilesProvider = {
  provide: JobFiles,
  inject: [APP_CONFIG],
  useFactory: async (config: Pick<AppConfig, 'subscriberJobs'>): Promise<JobFiles> =>
    config.subscriberJobs.storage === 's3' ? new (await import('./s3-job-files')).S3JobFiles(config) : new LocalDiskJobFiles(config),
};
