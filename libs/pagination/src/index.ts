export * from './cursor';
export * from './page';
