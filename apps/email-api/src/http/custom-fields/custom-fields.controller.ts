import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { SearchablePageQueryDto } from '@shared/pagination';
import { CustomFieldUpsertRequestDto, CustomFieldListDto, CustomFieldResponseDto, CustomFieldService, CustomFieldUpdateRequestDto } from '@email/audience';
import { CurrentWorkspace, EmailWorkspaceContext } from '@email/access';
import { ApiErrorResponses } from '@email/platform';

@ApiTags('Custom Fields')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/custom-fields')
export class CustomFieldsController {
  constructor(private readonly customFields: CustomFieldService) {}

  @Get()
  @RequireScopes('custom_fields:read')
  @ApiOperation({ operationId: 'listCustomFields', summary: 'List custom fields' })
  @ApiErrorResponses(400)
  @ApiOkResponse({ type: CustomFieldListDto })
  list(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Query() query: SearchablePageQueryDto): Promise<CustomFieldListDto> {
    return this.customFields.list(workspace.workspaceId, query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('custom_fields:write')
  @ApiOperation({ operationId: 'createCustomField', summary: 'Create a custom field' })
  @ApiErrorResponses(400)
  @ApiCreatedResponse({ type: CustomFieldResponseDto })
  async create(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Body() body: CustomFieldUpsertRequestDto): Promise<CustomFieldResponseDto> {
    return { data: await this.customFields.create(workspace.workspaceId, body) };
  }

  @Get(':custom_field_id')
  @RequireScopes('custom_fields:read')
  @ApiOperation({ operationId: 'getCustomField', summary: 'Get a custom field' })
  @ApiErrorResponses(404)
  @ApiOkResponse({ type: CustomFieldResponseDto })
  async get(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('custom_field_id') id: string): Promise<CustomFieldResponseDto> {
    return { data: await this.customFields.get(workspace.workspaceId, id) };
  }

  @Put(':custom_field_id')
  @RequireScopes('custom_fields:write')
  @ApiOperation({ operationId: 'updateCustomField', summary: 'Update a custom field' })
  @ApiErrorResponses(400, 404, 409)
  @ApiOkResponse({ type: CustomFieldResponseDto })
  async update(
    @CurrentWorkspace() workspace: EmailWorkspaceContext,
    @Param('custom_field_id') id: string,
    @Body() body: CustomFieldUpdateRequestDto,
  ): Promise<CustomFieldResponseDto> {
    return { data: await this.customFields.update(workspace.workspaceId, id, body) };
  }

  @Delete(':custom_field_id')
  @HttpCode(204)
  @RequireScopes('custom_fields:write')
  @ApiOperation({ operationId: 'deleteCustomField', summary: 'Delete a custom field' })
  @ApiErrorResponses(404, 409)
  @ApiNoContentResponse()
  async delete(@CurrentWorkspace() workspace: EmailWorkspaceContext, @Param('custom_field_id') id: string): Promise<void> {
    await this.customFields.delete(workspace.workspaceId, id);
  }
}
