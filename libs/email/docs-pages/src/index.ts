import { Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { DocsSite } from './docs-site';

export * from './routes';
export * from './docs-site';
export { StaticAsset } from './assets';
export type { DocsConfig } from './site-links';

/** Register in the app module's providers: the pages are rendered once, at boot, from the configuration. */
export const DOCS_SITE_PROVIDER: Provider = { provide: DocsSite, useFactory: (config: AppConfig) => new DocsSite(config), inject: [APP_CONFIG] };
