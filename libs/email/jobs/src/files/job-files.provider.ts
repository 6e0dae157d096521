import { APP_CONFIG, AppConfig } from '@shared/config';
import { JobFiles, LocalDiskJobFiles } from './job-files';
import { S3JobFiles } from './s3-job-files';

/** The JobFiles of SUBSCRIBER_JOB_FILES_STORAGE: local disk (the default) or an S3-compatible bucket. */
export const jobFilesProvider = {
  provide: JobFiles,
  inject: [APP_CONFIG],
  useFactory: (config: Pick<AppConfig, 'subscriberJobs'>): JobFiles =>
    config.subscriberJobs.storage === 's3' ? new S3JobFiles(config) : new LocalDiskJobFiles(config),
};
