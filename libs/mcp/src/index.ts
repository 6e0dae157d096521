export * from './json-schema';
export * from './route-request';
export * from './results';
export * from './tool-server';
export * from './http-endpoint';
export * from './stdio-bridge';
