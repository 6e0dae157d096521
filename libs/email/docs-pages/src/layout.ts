import { DocsAssets, StaticAsset } from './assets';
import { html, SafeHtml } from './html';
import { DOCS_ASSET_ROUTE, DOCS_PAGE_ROUTES, DocsPageName } from './routes';
import { DocsConfig, SiteLinks } from './site-links';

/** What one page says; the layout adds the header, navigation and footer. */
export interface PageContent {
  name: DocsPageName;
  title: string;
  /** One sentence for the `description` meta tag. */
  summary: string;
  body: SafeHtml;
  /** The API reference needs the full width and Swagger UI's files. */
  reference?: boolean;
}

const NAVIGATION: Array<[DocsPageName, string]> = [
  ['index', 'Overview'],
  ['apiReference', 'API reference'],
  ['authentication', 'Authentication'],
  ['apiKeys', 'API keys'],
  ['agents', 'Agents and LLMs'],
  ['sdks', 'Client libraries'],
  ['mcp', 'MCP'],
];

/** Everything a page needs to link: routes of this server and the asset files. */
export interface Site {
  config: DocsConfig;
  links: SiteLinks;
  assets: DocsAssets;
}

export const pageLink = (site: Site, name: DocsPageName, anchor?: string): string => site.links.path(DOCS_PAGE_ROUTES[name]) + (anchor ? `#${anchor}` : '');

const assetLink = (site: Site, asset: StaticAsset): string => site.links.path(`${DOCS_ASSET_ROUTE}/${asset.fileName}`);

export function renderPage(site: Site, page: PageContent): string {
  const { assets } = site;
  const styles = page.reference ? [assets.swaggerCss, assets.siteCss] : [assets.siteCss];
  const scripts = page.reference ? [assets.swaggerJs, assets.referenceJs] : [];
  const nav = NAVIGATION.map(
    ([name, label]) => html`<li><a href="${pageLink(site, name)}" ${name === page.name ? html` aria-current="page"` : ''}>${label}</a></li>`,
  );
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${page.title} · Postline email API</title>
        <meta name="description" content="${page.summary}" />
        <link rel="icon" href="data:," />
        ${styles.map((asset) => html`<link rel="stylesheet" href="${assetLink(site, asset)}" /> `)}${scripts.map((asset) => html`<script src="${assetLink(site, asset)}" defer></script> `)}
      </head>
      <body>
        <a class="skip-link" href="#content">Skip to content</a>
        <header class="site-header">
          <div class="site-header-inner">
            <a class="site-name" href="${pageLink(site, 'index')}">Postline email API</a>
            <nav class="site-nav" aria-label="Documentation">
              <ul>
                ${nav}
              </ul>
            </nav>
          </div>
        </header>
        <main id="content" class="${page.reference ? 'wide' : 'prose'}">${page.body}</main>
        <footer class="site-footer">
          <p>
            Served by this Postline install at <code>${site.links.apiBaseUrl}</code>. Machine-readable:
            <a href="${site.links.path('/v1/openapi.json')}">OpenAPI document</a> · <a href="${site.links.path('/llms.txt')}">llms.txt</a> ·
            <a href="${site.links.path('/v1')}">API metadata</a>.
          </p>
        </footer>
      </body>
    </html> `.value;
}
