import { AppConfig } from '@shared/config';

/** The base URLs the pages show: where the API is, and where error bodies send people (the examples quote them). */
export type DocsConfig = Pick<AppConfig, 'publicBaseUrl' | 'docsBaseUrl' | 'appBaseUrl'>;

/**
 * Where the pages point. Links between pages are root-relative, under the path of PUBLIC_BASE_URL (so a proxy that
 * serves the API under a path prefix keeps them working, and a test server on another host does too); the absolute
 * base URL appears only in examples a reader copies.
 */
export class SiteLinks {
  /** The path PUBLIC_BASE_URL adds in front of every route ('' at a host's root). */
  readonly prefix: string;

  constructor(readonly apiBaseUrl: string) {
    this.prefix = new URL(apiBaseUrl).pathname.replace(/\/+$/, '');
  }

  static of(config: DocsConfig): SiteLinks {
    return new SiteLinks(config.publicBaseUrl);
  }

  /** A route of this server, as a link. */
  path(route: string): string {
    return `${this.prefix}${route}`;
  }

  /** A route of this server as a full URL, for examples. */
  absolute(route: string): string {
    return `${this.apiBaseUrl}${route}`;
  }
}
