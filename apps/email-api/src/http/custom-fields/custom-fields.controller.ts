import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { SearchablePageQueryDto } from '@shared/pagination';
import { CustomFieldUpsertRequestDto, CustomFieldListDto, CustomFieldResponseDto, CustomFieldService, CustomFieldUpdateRequestDto } from '@email/audience';

@ApiTags('Custom Fields')
@ApiBearerAuth('WorkspaceApiKey')
@Controller('v1/custom-fields')
export class CustomFieldsController {
  constructor(private readonly customFields: CustomFieldService) {}

  @Get()
  @RequireScopes('custom_fields:read')
  @ApiOperation({ operationId: 'listCustomFields', summary: 'List custom fields' })
  @ApiOkResponse({ type: CustomFieldListDto })
  list(@CurrentPrincipal() p: Principal, @Query() query: SearchablePageQueryDto): Promise<CustomFieldListDto> {
    return this.customFields.list(p.subjectId, query);
  }

  @Post()
  @Idempotent()
  @RequireScopes('custom_fields:write')
  @ApiOperation({ operationId: 'createCustomField', summary: 'Create a custom field' })
  @ApiCreatedResponse({ type: CustomFieldResponseDto })
  async create(@CurrentPrincipal() p: Principal, @Body() body: CustomFieldUpsertRequestDto): Promise<CustomFieldResponseDto> {
    return { data: await this.customFields.create(p.subjectId, body) };
  }

  @Get(':custom_field_id')
  @RequireScopes('custom_fields:read')
  @ApiOperation({ operationId: 'getCustomField', summary: 'Get a custom field' })
  @ApiOkResponse({ type: CustomFieldResponseDto })
  async get(@CurrentPrincipal() p: Principal, @Param('custom_field_id') id: string): Promise<CustomFieldResponseDto> {
    return { data: await this.customFields.get(p.subjectId, id) };
  }

  @Put(':custom_field_id')
  @RequireScopes('custom_fields:write')
  @ApiOperation({ operationId: 'updateCustomField', summary: 'Update a custom field' })
  @ApiOkResponse({ type: CustomFieldResponseDto })
  async update(@CurrentPrincipal() p: Principal, @Param('custom_field_id') id: string, @Body() body: CustomFieldUpdateRequestDto): Promise<CustomFieldResponseDto> {
    return { data: await this.customFields.update(p.subjectId, id, body) };
  }

  @Delete(':custom_field_id')
  @HttpCode(204)
  @RequireScopes('custom_fields:write')
  @ApiOperation({ operationId: 'deleteCustomField', summary: 'Delete a custom field' })
  @ApiNoContentResponse()
  async delete(@CurrentPrincipal() p: Principal, @Param('custom_field_id') id: string): Promise<void> {
    await this.customFields.delete(p.subjectId, id);
  }
}
