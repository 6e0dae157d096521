import { Controller, Get, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { SubscriberImportUploadResponseDto, UploadService } from '@email/jobs';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

@ApiTags('Jobs')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/jobs/subscriber-import-uploads')
export class ImportUploadsController {
  constructor(private readonly uploads: UploadService) {}

  @Post()
  @RequireScopes('subscribers:import')
  @ApiOperation({ operationId: 'startSubscriberImportUpload', summary: 'Start a subscriber import upload' })
  @ApiCreatedResponse({ type: SubscriberImportUploadResponseDto })
  async start(@CurrentWorkspace() workspace: EmailWorkspaceContext): Promise<SubscriberImportUploadResponseDto> {
    return { data: await this.uploads.start(workspace.workspaceId) };
  }

  @Get(':upload_id')
  @RequireScopes('subscribers:import')
  @ApiOperation({ operationId: 'getSubscriberImportUpload', summary: 'Get a subscriber import upload' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: SubscriberImportUploadResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('upload_id') id: string): Promise<SubscriberImportUploadResponseDto> {
    return { data: await this.uploads.get(workspace.workspaceId, id) };
  }
}
