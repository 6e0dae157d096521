export * from './events';
export * from './outbox';
export * from './events.module';
