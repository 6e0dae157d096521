export * from './passwords';
export * from './secure-cookies';
export * from './browser-sessions';
export * from './sign-in-limiter';
export * from './page-shell';
export * from './sign-in-flow';
export * from './account-pages';
export * from './account-flow';
