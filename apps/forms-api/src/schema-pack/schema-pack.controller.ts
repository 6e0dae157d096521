import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { SchemaPack } from './schema-pack';

/** The pack is the same for everyone and changes only with a deploy. */
const CACHEABLE = 'public, max-age=300';

/** The machine-readable description of the forms API, public like any API reference. */
@ApiTags('Schema pack')
@Public()
@Controller()
export class SchemaPackController {
  constructor(private readonly pack: SchemaPack) {}

  @Get('api/v1/openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', CACHEABLE)
  @ApiOperation({ operationId: 'getOpenApiDocument', summary: 'Get this OpenAPI document' })
  @ApiOkResponse({ description: 'The OpenAPI 3.1 document of the /api/v1 surface.', schema: { type: 'object', additionalProperties: true } })
  json(): string {
    return this.pack.files().json;
  }

  @Get('openapi.yaml')
  @Header('content-type', 'application/yaml; charset=utf-8')
  @Header('cache-control', CACHEABLE)
  @ApiExcludeEndpoint()
  yaml(): string {
    return this.pack.files().yaml;
  }

  @Get('llms.txt')
  @Header('content-type', 'text/plain; charset=utf-8')
  @Header('cache-control', CACHEABLE)
  @ApiExcludeEndpoint()
  llmsTxt(): string {
    return this.pack.files().llmsTxt;
  }

  @Get('api-docs.txt')
  @Header('content-type', 'text/plain; charset=utf-8')
  @Header('cache-control', CACHEABLE)
  @ApiExcludeEndpoint()
  apiDocsTxt(): string {
    return this.pack.files().apiDocsTxt;
  }
}
