export * from './sender-identity.dto';
export * from './sender-identity.service';
export * from './delivery-connection-state.service';
export * from './delivery.module';
export * from './unsubscribe';
export * from './providers';
