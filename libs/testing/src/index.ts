export * from './databases';
export * from './fuzz';
export * from './http-app';
export * from './routes';
export * from './http-edges';
export * from './outages';
export * from './dependency-outage';
export * from './ports';
