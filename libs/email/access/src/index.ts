export * from './scopes';
export * from './api-key-secret';
export * from './access.repository';
export * from './access.service';
export * from './credential-verifier';
export * from './access.module';
export * from './workspace-context';
