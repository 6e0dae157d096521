export * from './destination';
export * from './retry-schedule';
export * from './safe-client';
export * from './signing';
export * from './timeout';
