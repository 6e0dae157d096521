export * from './readiness';
export * from './health.controller';
export * from './http-app';
export * from './worker-app';
export * from './raw-body';
export * from './media-type';
