export * from './catalogue';
export * from './results';
export * from './tools';
export * from './export-tools';
export * from './server';
export * from './stdio';
