export * from './machine-open';
export * from './event-partitions';
export * from './engagement-windows.repository';
export * from './engagement.repository';
export * from './engagement-maintenance.service';
export * from './engagement.module';
