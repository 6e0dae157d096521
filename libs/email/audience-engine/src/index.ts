export * from './audience-definition';
export * from './audience-compiler';
export * from './audience.repository';
export * from './engagement';
export * from './membership';
export * from './regions';
