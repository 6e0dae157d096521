import { Inject, Injectable, INestApplication, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { OnHttpAppConfigured } from '@shared/bootstrap';
import { ApiCatalog, buildApiCatalog, API_CATALOG_PATH } from './api-catalog';
import { buildApiMetadata } from './api-metadata';
import { ApiOperationInfo, listApiOperations } from './api-operations';
import { CapabilitiesCatalog } from './capabilities';
import { renderLlmsFullTxt, renderLlmsTxt } from './llms-text';
import { createOpenApiDocument } from './openapi-document';

interface Built {
  document: OpenAPIObject;
  documentJson: string;
  operations: readonly ApiOperationInfo[];
  capabilities: CapabilitiesCatalog;
  llmsTxt: string;
  llmsFullTxt: string;
  apiCatalogJson: Buffer;
}

/**
 * The app's OpenAPI document and everything derived from it (capability catalogue, llms files, API
 * catalog), generated once when the app boots and then served from memory. The bootstrap hands over
 * the application (configureHttpApp → OnHttpAppConfigured), which the generator needs to scan it.
 */
@Injectable()
export class ApiDescription implements OnHttpAppConfigured, OnApplicationBootstrap {
  private readonly logger = new Logger('ApiDescription');
  private app?: INestApplication;
  private built?: Built;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onHttpAppConfigured(app: INestApplication): void {
    this.app = app;
  }

  /** Builds at boot, so a broken DTO or a duplicate operationId fails the start rather than the first request. */
  onApplicationBootstrap(): void {
    if (this.app) this.get();
    else this.logger.warn('The application was not configured with configureHttpApp; the API description is unavailable.');
  }

  get document(): OpenAPIObject {
    return this.get().document;
  }

  get documentJson(): string {
    return this.get().documentJson;
  }

  get operations(): readonly ApiOperationInfo[] {
    return this.get().operations;
  }

  get capabilities(): CapabilitiesCatalog {
    return this.get().capabilities;
  }

  get llmsTxt(): string {
    return this.get().llmsTxt;
  }

  get llmsFullTxt(): string {
    return this.get().llmsFullTxt;
  }

  /** Bytes, so Fastify sends the linkset media type exactly as set (it appends a charset to strings). */
  get apiCatalogJson(): Buffer {
    return this.get().apiCatalogJson;
  }

  private get(): Built {
    if (this.built) return this.built;
    if (!this.app) throw new Error('The API description is not available: the app was not configured with configureHttpApp.');
    const document = createOpenApiDocument(this.app, this.config);
    const operations = listApiOperations(document);
    const meta = buildApiMetadata(this.config);
    const links = { ...meta, api_base_url: this.config.publicBaseUrl, api_catalog_url: `${this.config.publicBaseUrl}${API_CATALOG_PATH}` };
    const catalog: ApiCatalog = buildApiCatalog(this.config);
    this.built = {
      document,
      documentJson: JSON.stringify(document),
      operations,
      capabilities: new CapabilitiesCatalog(operations, this.config),
      llmsTxt: renderLlmsTxt(document, links),
      llmsFullTxt: renderLlmsFullTxt(document, links),
      apiCatalogJson: Buffer.from(JSON.stringify(catalog)),
    };
    return this.built;
  }
}
