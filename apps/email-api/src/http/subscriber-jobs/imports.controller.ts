import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiExtension, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { Page, PageQueryDto } from '@shared/pagination';
import {
  ImportService,
  SubscriberImportJobCreateRequestDto,
  SubscriberImportJobListDto,
  SubscriberImportJobResponseDto,
  SubscriberImportJobSummaryDto,
  SubscriberImportResultsResponseDto,
} from '@email/jobs';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

@ApiTags('Jobs')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/jobs/subscriber-imports')
export class ImportsController {
  constructor(private readonly imports: ImportService) {}

  @Get()
  @RequireScopes('subscribers:import')
  @ApiOperation({ operationId: 'listSubscriberImportJobs', summary: 'List subscriber import jobs' })
  @ApiOkResponse({ type: SubscriberImportJobListDto })
  list(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Query() query: PageQueryDto): Promise<Page<SubscriberImportJobSummaryDto>> {
    return this.imports.list(workspace.workspaceId, query);
  }

  @Post()
  @HttpCode(202)
  @Idempotent()
  @RequireScopes('live_actions:write', 'subscribers:import')
  @ApiOperation({ operationId: 'createSubscriberImportJob', summary: 'Create a subscriber import job' })
  @ApiErrorResponses(400)
  @ApiAcceptedResponse({ type: SubscriberImportJobResponseDto })
  async create(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Body() body: SubscriberImportJobCreateRequestDto,
  ): Promise<SubscriberImportJobResponseDto> {
    return { data: await this.imports.create(workspace.workspaceId, body, false) };
  }

  /** Our extension: the same request as a dry run; its results say what would be created, updated and rejected. */
  @Post('preview')
  @ApiExtension('x-postline-extension', true)
  @HttpCode(202)
  @Idempotent()
  @RequireScopes('subscribers:import')
  @ApiOperation({
    operationId: 'previewSubscriberImportJob',
    summary: 'Dry-run a subscriber import (extension)',
    description:
      'Postline extension. Validates the request like createSubscriberImportJob and queues a dry run: every row is checked against the stored subscribers and nothing is written. Read what would happen from getSubscriberImportJobResults. The upload stays Ready.',
  })
  @ApiErrorResponses(400)
  @ApiAcceptedResponse({ type: SubscriberImportJobResponseDto })
  async preview(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Body() body: SubscriberImportJobCreateRequestDto,
  ): Promise<SubscriberImportJobResponseDto> {
    return { data: await this.imports.create(workspace.workspaceId, body, true) };
  }

  @Get(':job_id')
  @RequireScopes('subscribers:import')
  @ApiOperation({ operationId: 'getSubscriberImportJob', summary: 'Get a subscriber import job' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: SubscriberImportJobResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('job_id') id: string): Promise<SubscriberImportJobResponseDto> {
    return { data: await this.imports.get(workspace.workspaceId, id) };
  }

  /** Our extension: counts and the rejected rows (row number, column, reason), a cursor page at a time. */
  @Get(':job_id/results')
  @ApiExtension('x-postline-extension', true)
  @RequireScopes('subscribers:import')
  @ApiOperation({
    operationId: 'getSubscriberImportJobResults',
    summary: 'Get the row results of a subscriber import job (extension)',
    description:
      'Postline extension, kept apart from the contract’s job record: created, updated, unchanged, rejected and duplicate row counts, and the rejected rows in row order with the column at fault and the reason.',
  })
  @ApiErrorResponses(400, 404)
  @ApiOkResponse({ type: SubscriberImportResultsResponseDto })
  results(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('job_id') id: string,
    @Query() query: PageQueryDto,
  ): Promise<SubscriberImportResultsResponseDto> {
    return this.imports.results(workspace.workspaceId, id, query);
  }
}
