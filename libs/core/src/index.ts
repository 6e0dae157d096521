export * from './ids';
export * from './tenancy';
