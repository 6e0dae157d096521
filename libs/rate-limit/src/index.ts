export * from './rate-limit.interceptor';
