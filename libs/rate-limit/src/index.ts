export * from './rate-limit.guard';
export * from './fixed-window';
export * from './batched-window';
export * from './ip-request-limit';
export * from './client-subject';
