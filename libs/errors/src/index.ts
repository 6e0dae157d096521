export * from './domain-error';
export * from './error-codes';
export * from './to-error-response';
export * from './exception.filter';
export * from './validation';
export * from './storable-input';
export * from './unavailable';
export * from './client-error';
