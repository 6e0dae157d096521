export * from './ids';
export * from './tenancy';
export * from './html-escape';
export * from './spreadsheet-cell';
export * from './loopback';
export * from './like-pattern';
