export * from './events';
export * from './outbox.repository';
export * from './events.module';
