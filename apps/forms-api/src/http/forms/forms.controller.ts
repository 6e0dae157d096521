import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CREDENTIAL_VERIFIER, CredentialVerifier, CurrentPrincipal, Principal, RequireScopes } from '@shared/auth';
import { Idempotent } from '@shared/idempotency';
import { parseLimit } from '@shared/pagination';
import {
  CreateFormDto,
  DeletedFormDto,
  FormDetailDto,
  FormListDto,
  FormsService,
  FormsWorkspaceContext,
  FormWorkspace,
  ListFormsQueryDto,
  PublishedFormDto,
  PublishFormDto,
  ReplaceDraftDto,
  RevisedFormDto,
  UpdatedFormDto,
  UpdateFormDto,
  WorkspaceContextResolver,
} from '@forms/forms';
import { FormsErrors } from '@forms/contracts';
import { PaymentFieldRules } from '@forms/payments';
import { ApiErrors } from '../../schema-pack/error-response';
import { JsonObjectBody } from './json-object-body';

const FORM_LIST_LIMIT = { default: 20, max: 100 };

@ApiTags('Forms')
@Controller('api/v1/forms')
export class FormsController {
  constructor(
    private readonly forms: FormsService,
    private readonly workspaces: WorkspaceContextResolver,
    private readonly paymentFields: PaymentFieldRules,
    @Inject(CREDENTIAL_VERIFIER) private readonly credentials: CredentialVerifier,
  ) {}

  @Post()
  @RequireScopes('forms:create')
  @UseGuards(JsonObjectBody)
  @Idempotent()
  @ApiOperation({ operationId: 'createForm', summary: 'Create a form' })
  @ApiCreatedResponse({ type: FormDetailDto })
  @ApiErrors(400, 404, 409, 413)
  // The workspace named in the body is resolved once the body is validated.
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateFormDto): Promise<FormDetailDto> {
    const workspace = await this.workspaces.forCreate(p, oneWorkspaceId(body));
    return this.forms.create(workspace, { title: body.title, draftSchema: body.draftSchema }, this.paymentFields.forDrafts(workspace.workspaceId));
  }

  @Get()
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'listForms', summary: 'List forms, most recently changed first' })
  @ApiOkResponse({ type: FormListDto })
  @ApiErrors(400, 404)
  async list(@CurrentPrincipal() p: Principal, @Query() query: ListFormsQueryDto): Promise<FormListDto> {
    const limit = parseLimit(query.limit, FORM_LIST_LIMIT);
    return this.forms.list(await this.workspaces.forList(p, oneWorkspaceId(query)), { limit });
  }

  @Get(':form_id')
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'getForm', summary: 'Get a form with its draft and published schema' })
  @ApiOkResponse({ type: FormDetailDto })
  @ApiErrors(404)
  get(@FormWorkspace('view') workspace: FormsWorkspaceContext, @Param('form_id') formId: string): Promise<FormDetailDto> {
    return this.forms.get(workspace, formId);
  }

  @Patch(':form_id')
  @RequireScopes('forms:update')
  @UseGuards(JsonObjectBody)
  @ApiOperation({ operationId: 'updateForm', summary: 'Change the title or replace the draft' })
  @ApiOkResponse({ type: UpdatedFormDto })
  @ApiErrors(400, 404, 409, 413)
  update(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: UpdateFormDto): Promise<UpdatedFormDto> {
    return this.forms.update(workspace, formId, body, this.paymentFields.forDrafts(workspace.workspaceId));
  }

  @Put(':form_id/draft')
  @RequireScopes('forms:update')
  @UseGuards(JsonObjectBody)
  @ApiOperation({ operationId: 'replaceDraft', summary: 'Replace the whole draft' })
  @ApiOkResponse({ type: RevisedFormDto })
  @ApiErrors(400, 404, 409, 413)
  replaceDraft(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Body() body: ReplaceDraftDto,
  ): Promise<RevisedFormDto> {
    return this.forms.replaceDraft(workspace, formId, body, this.paymentFields.forDrafts(workspace.workspaceId));
  }

  @Delete(':form_id')
  @RequireScopes('forms:delete')
  @ApiOperation({ operationId: 'deleteForm', summary: 'Delete a form and its submissions' })
  @ApiOkResponse({ type: DeletedFormDto })
  @ApiErrors(404)
  delete(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string): Promise<DeletedFormDto> {
    return this.forms.delete(workspace, formId);
  }

  @Post(':form_id/publish')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @UseGuards(JsonObjectBody)
  @ApiOperation({ operationId: 'publishForm', summary: 'Validate the draft and publish it' })
  @ApiOkResponse({ type: PublishedFormDto })
  @ApiErrors(400, 404, 409, 413)
  publish(
    @CurrentPrincipal() p: Principal,
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Body() body: PublishFormDto,
  ): Promise<PublishedFormDto> {
    // Saving a whole draft is PUT draft's job, whichever route carries it.
    if (body.draftSchema !== undefined && !p.scopes.includes('forms:update'))
      throw this.credentials.insufficientScope(p, ['forms:publish', 'forms:update'], ['forms:update']);
    return this.forms.publish(workspace, formId, body, this.paymentFields.forDrafts(workspace.workspaceId));
  }

  @Post(':form_id/close')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @ApiOperation({ operationId: 'closeForm', summary: 'Stop accepting submissions' })
  @ApiOkResponse({ type: FormDetailDto })
  @ApiErrors(404, 409)
  close(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string): Promise<FormDetailDto> {
    return this.forms.setAcceptingSubmissions(workspace, formId, false);
  }

  @Post(':form_id/reopen')
  @HttpCode(200)
  @RequireScopes('forms:publish')
  @ApiOperation({ operationId: 'reopenForm', summary: 'Accept submissions again' })
  @ApiOkResponse({ type: FormDetailDto })
  @ApiErrors(404, 409)
  reopen(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string): Promise<FormDetailDto> {
    return this.forms.setAcceptingSubmissions(workspace, formId, true);
  }
}

/** `workspaceId` or its alias `workspace_id`; both naming different workspaces is a 400 rather than a silent pick. */
function oneWorkspaceId(input: { workspaceId?: string; workspace_id?: string }): string | undefined {
  if (input.workspaceId !== undefined && input.workspace_id !== undefined && input.workspaceId !== input.workspace_id)
    throw FormsErrors.invalid('validation_failed', 'workspaceId and its alias workspace_id name different workspaces; send one.', 'workspace_id');
  return input.workspaceId ?? input.workspace_id;
}
