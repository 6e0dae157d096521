import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { Page, PageQueryDto } from '@shared/pagination';
import {
  ExportService,
  SubscriberExportJobCreateRequestDto,
  SubscriberExportJobListDto,
  SubscriberExportJobResponseDto,
  SubscriberExportJobSummaryDto,
} from '@email/jobs';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

@ApiTags('Jobs')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/jobs/subscriber-exports')
export class ExportsController {
  constructor(private readonly exports: ExportService) {}

  @Get()
  @RequireScopes('subscribers:export')
  @ApiOperation({ operationId: 'listSubscriberExportJobs', summary: 'List subscriber export jobs' })
  @ApiOkResponse({ type: SubscriberExportJobListDto })
  list(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Query() query: PageQueryDto): Promise<Page<SubscriberExportJobSummaryDto>> {
    return this.exports.list(workspace.workspaceId, query);
  }

  @Post()
  @HttpCode(202)
  @Idempotent()
  @RequireScopes('subscribers:export')
  @ApiOperation({ operationId: 'createSubscriberExportJob', summary: 'Create a subscriber export job' })
  @ApiBody({ type: SubscriberExportJobCreateRequestDto, required: false })
  @ApiErrorResponses(400)
  @ApiAcceptedResponse({ type: SubscriberExportJobResponseDto })
  async create(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Body() body?: SubscriberExportJobCreateRequestDto,
  ): Promise<SubscriberExportJobResponseDto> {
    return { data: await this.exports.create(workspace.workspaceId, body) };
  }

  @Get(':job_id')
  @RequireScopes('subscribers:export')
  @ApiOperation({ operationId: 'getSubscriberExportJob', summary: 'Get a subscriber export job' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: SubscriberExportJobResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('job_id') id: string): Promise<SubscriberExportJobResponseDto> {
    return { data: await this.exports.get(workspace.workspaceId, id) };
  }
}
