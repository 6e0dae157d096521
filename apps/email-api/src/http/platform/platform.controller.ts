import { Controller, Get, Header, Headers, Inject } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import {
  ApiDescription,
  ApiMetadataDto,
  buildApiMetadata,
  CAPABILITIES_EXTRA_MODELS,
  CapabilitiesResponseDto,
  CapabilitiesService,
  mcpSelectionFromHeaders,
} from '@email/platform';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';

@ApiTags('Platform')
@ApiExtraModels(...CAPABILITIES_EXTRA_MODELS)
@Controller('v1')
export class PlatformController {
  private readonly metadata: ApiMetadataDto;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly description: ApiDescription,
    private readonly capabilities: CapabilitiesService,
  ) {
    this.metadata = buildApiMetadata(config);
  }

  @Public()
  @Get()
  @ApiOperation({ operationId: 'getPublicApiMeta', summary: 'Get API metadata' })
  @ApiOkResponse({ type: ApiMetadataDto })
  getMetadata(): ApiMetadataDto {
    return this.metadata;
  }

  @Get('capabilities')
  @ApiOperation({
    operationId: 'getPublicApiCapabilities',
    summary: 'Get authenticated API capabilities',
    description: 'The workspace, the calling credential, shared conventions, webhook events and the operations this credential can call now.',
  })
  @ApiOkResponse({ type: CapabilitiesResponseDto })
  async getCapabilities(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Headers() headers: Record<string, string | undefined>,
  ): Promise<CapabilitiesResponseDto> {
    // Called through an MCP connection (its mailrith-mcp-* headers): narrowed to the connection's operations.
    return { data: await this.capabilities.forWorkspace(workspace, mcpSelectionFromHeaders(headers)) };
  }

  @Public()
  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  @ApiOperation({ operationId: 'getPublicApiOpenApiDocument', summary: 'Get the OpenAPI document' })
  @ApiOkResponse({ description: 'This OpenAPI document.', schema: { type: 'object', additionalProperties: true } })
  getOpenApiDocument(): string {
    return this.description.documentJson;
  }
}
