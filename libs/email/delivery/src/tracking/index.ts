export * from './tracking-token';
export * from './message-tracking';
