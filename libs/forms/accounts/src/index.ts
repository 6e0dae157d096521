export * from './scopes';
export * from './api-key-secret';
export * from './accounts.repository';
export * from './accounts.service';
export * from './credential-verifier';
export * from './me.dto';
export * from './accounts.module';
