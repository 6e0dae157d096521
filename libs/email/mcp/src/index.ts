export * from './json-schema';
export * from './results';
export * from './tools';
export * from './tool-request';
export * from './server';
export * from './stdio-bridge';
