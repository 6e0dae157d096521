import { Inject, Injectable, INestApplication, OnApplicationBootstrap } from '@nestjs/common';
import { stringify } from 'yaml';
import { OnHttpAppConfigured } from '@shared/bootstrap';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { renderApiDocsTxt, renderLlmsTxt } from './agent-guide';
import { createFormsOpenApiDocument } from './openapi-document';

export interface SchemaPackFiles {
  json: string;
  yaml: string;
  llmsTxt: string;
  apiDocsTxt: string;
}

/**
 * The schema pack in every form it is served in, generated once per process: at boot, so a broken DTO or
 * schema fails the start, not the first request. The bootstrap hands over the app, which the generator scans.
 */
@Injectable()
export class SchemaPack implements OnHttpAppConfigured, OnApplicationBootstrap {
  private app?: INestApplication;
  private built?: SchemaPackFiles;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  onHttpAppConfigured(app: INestApplication): void {
    this.app = app;
  }

  onApplicationBootstrap(): void {
    if (this.app) this.files();
  }

  files(): SchemaPackFiles {
    if (this.built) return this.built;
    if (!this.app) throw new Error('The schema pack needs the app: it was not configured with configureHttpApp.');
    const document = createFormsOpenApiDocument(this.app, this.config);
    const baseUrl = this.config.formsPublicBaseUrl;
    this.built = {
      json: JSON.stringify(document),
      yaml: stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 }),
      llmsTxt: renderLlmsTxt(document, baseUrl),
      apiDocsTxt: renderApiDocsTxt(document, baseUrl),
    };
    return this.built;
  }
}
