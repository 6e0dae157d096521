import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { ApiMetadataDto, buildApiMetadata } from '@email/platform';

@ApiTags('Platform')
@Controller('v1')
export class PlatformController {
  private readonly metadata: ApiMetadataDto;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.metadata = buildApiMetadata(config);
  }

  @Public()
  @Get()
  @ApiOperation({ operationId: 'getPublicApiMeta', summary: 'Get API metadata' })
  @ApiOkResponse({ type: ApiMetadataDto })
  getMetadata(): ApiMetadataDto {
    return this.metadata;
  }
}
