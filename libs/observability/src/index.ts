export * from './logger';
export * from './access-log';
export * from './request-id';
export * from './queue-metrics';
export * from './with-timeout';
