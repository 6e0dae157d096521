import { createHash } from 'node:crypto';
import { DocsAssets, StaticAsset } from './assets';
import { PageContent, renderPage, Site } from './layout';
import { agentsPage } from './pages/agents';
import { apiKeysPage } from './pages/api-keys';
import { apiReferencePage } from './pages/api-reference';
import { authenticationPage } from './pages/authentication';
import { mcpPage } from './pages/mcp';
import { overviewPage } from './pages/overview';
import { pythonPage, sdksPage, typescriptPage } from './pages/sdks';
import { DOCS_PAGE_ROUTES } from './routes';
import { DocsConfig, SiteLinks } from './site-links';

const PAGES: Array<(site: Site) => PageContent> = [
  overviewPage,
  apiReferencePage,
  authenticationPage,
  apiKeysPage,
  agentsPage,
  sdksPage,
  typescriptPage,
  pythonPage,
  mcpPage,
];

export interface RenderedPage {
  body: Buffer;
  etag: string;
}

/**
 * Scripts and styles only from this server (Swagger UI included), its fetches only to this server and the API base
 * URL (the reference loads the OpenAPI document and, on "Try it out", calls the API); images from here or inline SVG
 * data; no frames, forms, plugins or base URL changes.
 */
export function docsCsp(config: DocsConfig): string {
  const api = new URL(config.publicBaseUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${api}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The documentation pages and their static files, rendered once from the configuration. */
export class DocsSite {
  readonly csp: string;
  /** Where the root of the host sends a visitor (the OpenAPI document's server URL is the root). */
  readonly home: string;
  private readonly assets = new DocsAssets();
  private readonly pages: Map<string, RenderedPage>;

  constructor(config: DocsConfig) {
    this.csp = docsCsp(config);
    const site: Site = { config, links: SiteLinks.of(config), assets: this.assets };
    this.home = site.links.path(DOCS_PAGE_ROUTES.index);
    this.pages = new Map(
      PAGES.map((build) => {
        const page = build(site);
        const body = Buffer.from(renderPage(site, page));
        return [DOCS_PAGE_ROUTES[page.name], { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` }];
      }),
    );
  }

  /** The page served at `route` (one of DOCS_PAGE_ROUTES). */
  page(route: string): RenderedPage | undefined {
    return this.pages.get(route);
  }

  asset(fileName: string): StaticAsset | undefined {
    return this.assets.find(fileName);
  }
}
