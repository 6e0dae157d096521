export * from './queues';
export * from './job-payloads';
