export * from './delivery-provider';
export * from './custom-smtp.provider';
