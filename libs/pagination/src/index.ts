export * from './cursor';
export * from './page';
export * from './keyset';
export * from './list-query.dto';
export * from './cursor-codec.provider';
