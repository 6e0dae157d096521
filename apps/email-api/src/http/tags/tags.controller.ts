import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { SearchablePageQueryDto } from '@shared/pagination';
import { TagCreateRequestDto, TagListDto, TagResponseDto, TagService, TagUpdateRequestDto } from '@email/audience';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

@ApiTags('Tags')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/tags')
export class TagsController {
  constructor(private readonly tags: TagService) {}

  @Get()
  @RequireScopes('tags:read')
  @ApiOperation({ operationId: 'listTags', summary: 'List tags' })
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: TagListDto })
  list(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Query() query: SearchablePageQueryDto): Promise<TagListDto> {
    return this.tags.list(workspace.workspaceId, query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('tags:write')
  @ApiOperation({ operationId: 'createTag', summary: 'Create a tag' })
  @ApiErrorResponses(400, 409)
  @ApiCreatedResponse({ type: TagResponseDto })
  async create(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Body() body: TagCreateRequestDto): Promise<TagResponseDto> {
    return { data: await this.tags.create(workspace.workspaceId, body) };
  }

  @Get(':tag_id')
  @RequireScopes('tags:read')
  @ApiOperation({ operationId: 'getTag', summary: 'Get a tag' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: TagResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('tag_id') id: string): Promise<TagResponseDto> {
    return { data: await this.tags.get(workspace.workspaceId, id) };
  }

  @Put(':tag_id')
  @RequireScopes('tags:write')
  @ApiOperation({ operationId: 'updateTag', summary: 'Update a tag' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: TagResponseDto })
  async update(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('tag_id') id: string, @Body() body: TagUpdateRequestDto): Promise<TagResponseDto> {
    return { data: await this.tags.update(workspace.workspaceId, id, body) };
  }

  @Delete(':tag_id')
  @HttpCode(204)
  @RequireScopes('tags:write')
  @ApiOperation({ operationId: 'deleteTag', summary: 'Delete a tag' })
  @ApiErrorResponses(404, 409)
  @ApiNoContentResponse()
  async delete(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('tag_id') id: string): Promise<void> {
    await this.tags.delete(workspace.workspaceId, id);
  }
}
