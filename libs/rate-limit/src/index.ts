export * from './rate-limit.guard';
