export * from './databases';
export * from './fuzz';
export * from './http-app';
export * from './routes';
