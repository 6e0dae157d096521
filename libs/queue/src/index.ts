export * from './queue-options';
export * from './typed-queues';
export * from './queue.module';
