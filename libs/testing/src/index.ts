export * from './databases';
export * from './http-app';
