import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { SearchablePageQueryDto } from '@shared/pagination';
import {
  SegmentListDto,
  SegmentPreviewRequestDto,
  SegmentPreviewResponseDto,
  SegmentResponseDto,
  SegmentService,
  SegmentUpdateRequestDto,
  SegmentUpsertRequestDto,
} from '@email/audience-engine';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

@ApiTags('Segments')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/segments')
export class SegmentsController {
  constructor(private readonly segments: SegmentService) {}

  @Get()
  @RequireScopes('segments:read')
  @ApiOperation({ operationId: 'listSegments', summary: 'List segments' })
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: SegmentListDto })
  list(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Query() query: SearchablePageQueryDto): Promise<SegmentListDto> {
    return this.segments.list(workspace.workspaceId, query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('segments:write')
  @ApiOperation({ operationId: 'createSegment', summary: 'Create a segment' })
  @ApiErrorResponses(400, 409)
  @ApiCreatedResponse({ type: SegmentResponseDto })
  async create(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Body() body: SegmentUpsertRequestDto): Promise<SegmentResponseDto> {
    return { data: await this.segments.create(workspace.workspaceId, body) };
  }

  @Post('preview')
  @HttpCode(200)
  @RequireScopes('segments:read')
  @ApiOperation({ operationId: 'previewSegment', summary: 'Preview a segment definition' })
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: SegmentPreviewResponseDto })
  async preview(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Body() body: SegmentPreviewRequestDto): Promise<SegmentPreviewResponseDto> {
    return { data: await this.segments.preview(workspace.workspaceId, body) };
  }

  @Get(':segment_id')
  @RequireScopes('segments:read')
  @ApiOperation({ operationId: 'getSegment', summary: 'Get a segment' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: SegmentResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('segment_id') id: string): Promise<SegmentResponseDto> {
    return { data: await this.segments.get(workspace.workspaceId, id) };
  }

  @Put(':segment_id')
  @RequireScopes('segments:write')
  @ApiOperation({ operationId: 'updateSegment', summary: 'Update a segment' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: SegmentResponseDto })
  async update(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('segment_id') id: string,
    @Body() body: SegmentUpdateRequestDto,
  ): Promise<SegmentResponseDto> {
    return { data: await this.segments.update(workspace.workspaceId, id, body) };
  }

  @Delete(':segment_id')
  @HttpCode(204)
  @RequireScopes('segments:write')
  @ApiOperation({ operationId: 'deleteSegment', summary: 'Delete a segment' })
  @ApiErrorResponses(404, 409)
  @ApiNoContentResponse()
  async delete(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('segment_id') id: string): Promise<void> {
    await this.segments.delete(workspace.workspaceId, id);
  }
}
