export * from './oauth-settings';
export * from './oauth.repository';
export * from './users.service';
export * from './connections.service';
export * from './email-oauth.store';
export * from './bearer-verifier';
export * from './scope-words';
export * from './oauth.module';
