export * from './queues';
export * from './job-payloads';
export * from './errors';
