export * from './sql-pool';
