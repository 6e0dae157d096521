export * from './oauth-error';
export * from './secrets';
export * from './store';
export * from './client-registration';
export * from './metadata';
export * from './oauth-server';
export * from './registration-limiter';
export * from './http';
