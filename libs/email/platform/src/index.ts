export * from './api-metadata.dto';
export * from './api-metadata';
