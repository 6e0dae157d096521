export * from './idempotency.interceptor';
