import { Controller, Get, Header, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { API_CATALOG_CONTENT_TYPE, apiCatalogLinkHeader, ApiDescription } from '@email/platform';

interface HeaderReply {
  header(name: string, value: string): HeaderReply;
  send(body: Buffer): unknown;
}

/** Discovery files outside /v1 (and outside the OpenAPI document): llms.txt, llms-full.txt and the RFC 9727 API catalog. */
@ApiExcludeController()
@Public()
@Controller()
export class DiscoveryFilesController {
  private readonly catalogLink: string;

  constructor(
    private readonly description: ApiDescription,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.catalogLink = apiCatalogLinkHeader(config);
  }

  @Get('llms.txt')
  @Header('content-type', 'text/plain; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  llms(): string {
    return this.description.llmsTxt;
  }

  @Get('llms-full.txt')
  @Header('content-type', 'text/plain; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  llmsFull(): string {
    return this.description.llmsFullTxt;
  }

  /** GET answers the linkset; HEAD (served by Fastify from this route) answers the same headers, Link included. */
  @Get('.well-known/api-catalog')
  apiCatalog(@Res() reply: HeaderReply): unknown {
    return reply
      .header('content-type', API_CATALOG_CONTENT_TYPE)
      .header('cache-control', 'public, max-age=300')
      .header('link', this.catalogLink)
      .send(this.description.apiCatalogJson);
  }
}
