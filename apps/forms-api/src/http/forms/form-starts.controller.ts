import { Body, Controller, Get, Inject, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal, RequireScopes } from '@shared/auth';
import { checkIdempotencyKey, findIdempotencyOutcome, Idempotent } from '@shared/idempotency';
import { REDIS_CLIENT } from '@shared/redis';
import type { Redis } from 'ioredis';
import { PaymentFieldRules } from '@forms/payments';
import {
  CreateFormStatusDto,
  DraftValidationDto,
  FormDetailDto,
  FormStarts,
  FormsWorkspaceContext,
  FormWorkspace,
  NewFormPlacementDto,
  STARTER_TEMPLATES,
  StarterTemplateListDto,
  WorkspaceContextResolver,
} from '@forms/forms';
import { ApiErrors } from '../../schema-pack/error-response';

/** Starting points for new forms (starter templates, copies) and the publish check of a draft. */
@ApiTags('Forms')
@Controller('api/v1')
export class FormStartsController {
  constructor(
    private readonly starts: FormStarts,
    private readonly workspaces: WorkspaceContextResolver,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    private readonly paymentFields: PaymentFieldRules,
  ) {}

  @Get('starter-templates')
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'listStarterTemplates', summary: 'List the built-in starter templates' })
  @ApiOkResponse({ type: StarterTemplateListDto })
  listStarterTemplates(): StarterTemplateListDto {
    return { data: [...STARTER_TEMPLATES] };
  }

  @Post('starter-templates/:template_id/forms')
  @RequireScopes('forms:create')
  @Idempotent()
  @ApiOperation({ operationId: 'createFormFromStarterTemplate', summary: 'Create a draft form from a starter template' })
  @ApiCreatedResponse({ type: FormDetailDto })
  @ApiErrors(400, 404, 409)
  async createFromStarterTemplate(
    @CurrentPrincipal() p: Principal,
    @Param('template_id') templateId: string,
    @Body() body: NewFormPlacementDto,
  ): Promise<FormDetailDto> {
    const target = await this.workspaces.forCreate(p, body.workspaceId ?? body.workspace_id);
    return this.starts.fromStarter(target, templateId, body.title, this.paymentFields.forDrafts(target.workspaceId));
  }

  @Get('form-creations/:idempotency_key')
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'getCreateFormStatus', summary: 'What a form creation with this Idempotency-Key made (to reconcile an interrupted create)' })
  @ApiOkResponse({ type: CreateFormStatusDto })
  @ApiErrors(400)
  async creationStatus(@CurrentPrincipal() p: Principal, @Param('idempotency_key') raw: string): Promise<CreateFormStatusDto> {
    const key = checkIdempotencyKey(raw, 'idempotency_key');
    return this.starts.creationStatus(p, key, await findIdempotencyOutcome(this.redis, p.subjectId, key));
  }

  @Post('forms/:form_id/clone')
  @RequireScopes('forms:read', 'forms:create')
  @Idempotent()
  @ApiOperation({ operationId: 'cloneForm', summary: "Copy a form's current draft into a new draft form" })
  @ApiCreatedResponse({ type: FormDetailDto })
  @ApiErrors(400, 404, 409)
  async clone(
    @CurrentPrincipal() p: Principal,
    @FormWorkspace('view') source: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Body() body: NewFormPlacementDto,
  ): Promise<FormDetailDto> {
    // Without a workspace named, the copy stays beside the original when the caller may create there.
    const named = body.workspaceId ?? body.workspace_id ?? (source.role === 'viewer' ? undefined : source.workspaceId);
    const target = await this.workspaces.forCreate(p, named);
    return this.starts.clone(source, formId, target, body.title, (draft) => this.paymentFields.checkCopy(target.workspaceId, draft, source.workspaceId));
  }

  @Get('forms/:form_id/draft/validation')
  @RequireScopes('forms:read')
  @ApiOperation({ operationId: 'validateDraft', summary: 'Check whether the current draft can be published, and why not' })
  @ApiOkResponse({ type: DraftValidationDto })
  @ApiErrors(404)
  validateDraft(@FormWorkspace('view') workspace: FormsWorkspaceContext, @Param('form_id') formId: string): Promise<DraftValidationDto> {
    return this.starts.validateDraft(workspace, formId);
  }
}
