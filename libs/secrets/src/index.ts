export * from './secret-box';
export * from './secret-box.provider';
