export * from './unsubscribe-token';
