export * from './principal';
export * from './principal-cache';
export * from './last-used-recorder';
export * from './decorators';
export * from './guards';
export * from './auth.module';
export * from './key-request';
