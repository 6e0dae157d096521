import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScopes } from '@shared/auth';
import { parseLimit } from '@shared/pagination';
import { CreateFormDto, FormsService, ListFormsQueryDto, PublishFormDto, ReplaceDraftDto, UpdateFormDto } from '@forms/forms';

const FORM_LIST_LIMIT = { default: 20, max: 100 };

@ApiTags('Forms')
@ApiBearerAuth()
@Controller('api/v1/forms')
export class FormsController {
  constructor(private readonly forms: FormsService) {}

  @Post()
  @RequireScopes('forms:create')
  @ApiOperation({ operationId: 'createForm', summary: 'Create a form' })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateFormDto) {
    return this.forms.create(p, { workspaceId: body.workspaceId ?? body.workspace_id, title: body.title, draftSchema: body.draftSchema });
  }

  @Get()
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'listForms', summary: 'List forms' })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListFormsQueryDto) {
    return this.forms.list(p, { limit: parseLimit(query.limit, FORM_LIST_LIMIT), workspaceId: query.workspaceId ?? query.workspace_id });
  }

  @Get(':form_id')
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'getForm', summary: 'Get a form with its draft and published schema' })
  get(@CurrentPrincipal() p: Principal, @Param('form_id') formId: string) {
    return this.forms.get(p, formId);
  }

  @Patch(':form_id')
  @RequireScopes('forms:update')
  @ApiOperation({ operationId: 'updateForm', summary: 'Change the title or replace the draft' })
  update(@CurrentPrincipal() p: Principal, @Param('form_id') formId: string, @Body() body: UpdateFormDto) {
    return this.forms.update(p, formId, body);
  }

  @Put(':form_id/draft')
  @RequireScopes('forms:update')
  @ApiOperation({ operationId: 'replaceDraft', summary: 'Replace the whole draft' })
  replaceDraft(@CurrentPrincipal() p: Principal, @Param('form_id') formId: string, @Body() body: ReplaceDraftDto) {
    return this.forms.replaceDraft(p, formId, body);
  }

  @Delete(':form_id')
  @RequireScopes('forms:delete')
  @ApiOperation({ operationId: 'deleteForm', summary: 'Delete a form and its submissions' })
  delete(@CurrentPrincipal() p: Principal, @Param('form_id') formId: string) {
    return this.forms.delete(p, formId);
  }

  @Post(':form_id/publish')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @ApiOperation({ operationId: 'publishForm', summary: 'Validate the draft and publish it' })
  publish(@CurrentPrincipal() p: Principal, @Param('form_id') formId: string, @Body() body: PublishFormDto) {
    return this.forms.publish(p, formId, body);
  }

  @Post(':form_id/close')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @ApiOperation({ operationId: 'closeForm', summary: 'Stop accepting submissions' })
  close(@CurrentPrincipal() p: Principal, @Param('form_id') formId: string) {
    return this.forms.setAcceptingSubmissions(p, formId, false);
  }

  @Post(':form_id/reopen')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @ApiOperation({ operationId: 'reopenForm', summary: 'Accept submissions again' })
  reopen(@CurrentPrincipal() p: Principal, @Param('form_id') formId: string) {
    return this.forms.setAcceptingSubmissions(p, formId, true);
  }
}
