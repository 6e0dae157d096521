export * from './minor-units';
export * from './recorded-payment';
export * from './providers/payment-provider';
export * from './payment-integrations.service';
export * from './payments.service';
export * from './payments.module';
export * from './workspace-admin.guard';
export * from './webhook-events-prune';
