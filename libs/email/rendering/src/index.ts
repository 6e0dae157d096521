export * from './document';
export * from './template';
export * from './tokens';
export { compileEmail, contentHash, TemplateCache, type EmailSource } from './compile';
export * from './footer';
