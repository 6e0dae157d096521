import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScopes } from '@shared/auth';
import { parseLimit } from '@shared/pagination';
import {
  CreateFormDto,
  FormsService,
  FormsWorkspaceContext,
  FormWorkspace,
  ListFormsQueryDto,
  PublishFormDto,
  ReplaceDraftDto,
  UpdateFormDto,
  WorkspaceContextResolver,
} from '@forms/forms';

const FORM_LIST_LIMIT = { default: 20, max: 100 };

@ApiTags('Forms')
@ApiBearerAuth()
@Controller('api/v1/forms')
export class FormsController {
  constructor(
    private readonly forms: FormsService,
    private readonly workspaces: WorkspaceContextResolver,
  ) {}

  @Post()
  @RequireScopes('forms:create')
  @ApiOperation({ operationId: 'createForm', summary: 'Create a form' })
  // The workspace named in the body is resolved once the body is validated.
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateFormDto) {
    const workspace = await this.workspaces.forCreate(p, body.workspaceId ?? body.workspace_id);
    return this.forms.create(workspace, { title: body.title, draftSchema: body.draftSchema });
  }

  @Get()
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'listForms', summary: 'List forms' })
  async list(@CurrentPrincipal() p: Principal, @Query() query: ListFormsQueryDto) {
    const limit = parseLimit(query.limit, FORM_LIST_LIMIT);
    return this.forms.list(await this.workspaces.forList(p, query.workspaceId ?? query.workspace_id), { limit });
  }

  @Get(':form_id')
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'getForm', summary: 'Get a form with its draft and published schema' })
  get(@FormWorkspace('view') workspace: FormsWorkspaceContext, @Param('form_id') formId: string) {
    return this.forms.get(workspace, formId);
  }

  @Patch(':form_id')
  @RequireScopes('forms:update')
  @ApiOperation({ operationId: 'updateForm', summary: 'Change the title or replace the draft' })
  update(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: UpdateFormDto) {
    return this.forms.update(workspace, formId, body);
  }

  @Put(':form_id/draft')
  @RequireScopes('forms:update')
  @ApiOperation({ operationId: 'replaceDraft', summary: 'Replace the whole draft' })
  replaceDraft(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: ReplaceDraftDto) {
    return this.forms.replaceDraft(workspace, formId, body);
  }

  @Delete(':form_id')
  @RequireScopes('forms:delete')
  @ApiOperation({ operationId: 'deleteForm', summary: 'Delete a form and its submissions' })
  delete(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string) {
    return this.forms.delete(workspace, formId);
  }

  @Post(':form_id/publish')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @ApiOperation({ operationId: 'publishForm', summary: 'Validate the draft and publish it' })
  publish(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: PublishFormDto) {
    return this.forms.publish(workspace, formId, body);
  }

  @Post(':form_id/close')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @ApiOperation({ operationId: 'closeForm', summary: 'Stop accepting submissions' })
  close(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string) {
    return this.forms.setAcceptingSubmissions(workspace, formId, false);
  }

  @Post(':form_id/reopen')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @ApiOperation({ operationId: 'reopenForm', summary: 'Accept submissions again' })
  reopen(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string) {
    return this.forms.setAcceptingSubmissions(workspace, formId, true);
  }
}
