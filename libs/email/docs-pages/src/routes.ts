/** Every page the docs site serves, by route. `apiKeys` is where the 403 `access_update_url` leads (APP_BASE_URL defaults to this server). */
export const DOCS_PAGE_ROUTES = {
  index: '/docs',
  apiReference: '/docs/api-reference',
  authentication: '/docs/authentication',
  apiKeys: '/settings',
  agents: '/docs/agents',
  sdks: '/docs/sdks',
  typescript: '/docs/sdks/typescript',
  python: '/docs/sdks/python',
  mcp: '/docs/mcp',
} as const;

export type DocsPageName = keyof typeof DOCS_PAGE_ROUTES;

/** Static files (stylesheets, scripts) live below this route, each under a name that holds a hash of its content. */
export const DOCS_ASSET_ROUTE = '/docs/assets';

/** The anchor of the authentication page the 403 `permissions_help_url` points at. */
export const ADD_PERMISSIONS_ANCHOR = 'add-permissions';
