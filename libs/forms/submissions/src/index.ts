export * from './submissions.module';
export * from './submissions.service';
export * from './uploads.service';
export * from './submission-record';
export * from './request-limiter';
export * from './public-limits';
export * from './upload-storage';
export * from './upload-cleanup';
