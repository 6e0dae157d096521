export * from './submissions.module';
export * from './submissions.service';
export * from './uploads.service';
export * from './submission-record';
