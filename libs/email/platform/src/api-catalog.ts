import { AppConfig } from '@shared/config';
import { buildApiMetadata } from './api-metadata';

export const API_CATALOG_PATH = '/.well-known/api-catalog';
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const API_CATALOG_CONTENT_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;

interface LinkTarget {
  href: string;
  type?: string;
  title?: string;
}

export interface ApiCatalog {
  linkset: Array<{ anchor: string } & Record<string, string | LinkTarget[]>>;
}

/**
 * The RFC 9727 API catalog (an RFC 9264 linkset): the catalog lists the v1 API as an item, and the API
 * links its machine description (OpenAPI), its human and LLM documentation and its metadata (GET /v1).
 */
export function buildApiCatalog(config: Pick<AppConfig, 'publicBaseUrl' | 'docsBaseUrl'>): ApiCatalog {
  const meta = buildApiMetadata(config);
  const api = `${config.publicBaseUrl}/v1`;
  return {
    linkset: [
      { anchor: `${config.publicBaseUrl}${API_CATALOG_PATH}`, item: [{ href: api, title: 'Email marketing API v1' }] },
      {
        anchor: api,
        'service-desc': [{ href: meta.openapi_url, type: 'application/vnd.oai.openapi+json' }],
        'service-doc': [
          { href: meta.documentation_url, type: 'text/html' },
          { href: meta.llms_url, type: 'text/plain' },
        ],
        'service-meta': [{ href: api, type: 'application/json' }],
      },
    ],
  };
}

/** The Link header value a HEAD (or GET) of the catalog answers with. */
export function apiCatalogLinkHeader(config: Pick<AppConfig, 'publicBaseUrl'>): string {
  return `<${config.publicBaseUrl}${API_CATALOG_PATH}>; rel="api-catalog"`;
}
