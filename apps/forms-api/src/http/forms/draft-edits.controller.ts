import { applyDecorators, Body, Controller, Delete, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { COMPONENT_REF_PREFIX } from '@forms/draft-schema';
import { PaymentFieldRules } from '@forms/payments';
import { RequireScopes } from '@shared/auth';
import {
  DeletedFieldDto,
  DeletedStepDto,
  DesignDto,
  DesignEditDto,
  DraftEditor,
  FieldEditDto,
  FieldOrderDto,
  FormsWorkspaceContext,
  FormWorkspace,
  deleteGuard,
  MoveFieldDto,
  MovedStepDto,
  MoveStepDto,
  ReorderFieldsDto,
  ReorderStepsDto,
  splitEditBody,
  StepEditDto,
  StepLogicDto,
  StepLogicEditDto,
  StepOrderDto,
} from '@forms/forms';
import { ApiErrors } from '../../schema-pack/error-response';

const guardOf = (body: { draft_revision?: number; force?: boolean }) => ({ draft_revision: body.draft_revision, force: body.force });

/** A free-form edit body (read by `splitEditBody`), documented by the schema the pack composes for it. */
const EditBody = (name: 'AddStepRequest' | 'StepPatchRequest' | 'AddFieldRequest' | 'FieldPatchRequest') =>
  ApiBody({ required: true, schema: { $ref: `${COMPONENT_REF_PREFIX}${name}` } });

/** DELETE requests carry the revision guard in the query string (or, like every other edit, in a JSON body). */
const GuardQuery = () =>
  applyDecorators(
    ApiQuery({
      name: 'draft_revision',
      required: false,
      schema: { type: 'integer', minimum: 0 },
      description: 'The revision your change is based on; a stale one is a 409.',
    }),
    ApiQuery({ name: 'force', required: false, schema: { type: 'boolean' }, description: 'Skip the revision check.' }),
  );

/** Step, field, logic and design edits of a form's draft. */
@ApiTags('Draft editing')
@Controller('api/v1/forms/:form_id')
export class DraftEditsController {
  constructor(
    private readonly editor: DraftEditor,
    private readonly paymentFields: PaymentFieldRules,
  ) {}

  @Post('steps')
  @HttpCode(201)
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'addStep', summary: 'Add a step (appended, or inserted at position)' })
  @EditBody('AddStepRequest')
  @ApiCreatedResponse({ type: StepEditDto })
  @ApiErrors(400, 404, 409, 413)
  addStep(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: unknown): Promise<StepEditDto> {
    const { guard, position, properties } = splitEditBody(body, { positioned: true });
    return this.editor.addStep(workspace, formId, properties, position, guard, this.paymentFields.forDrafts(workspace.workspaceId));
  }

  // Declared before `steps/:step_id` routes so `reorder` is never read as a step id.
  @Post('steps/reorder')
  @HttpCode(200)
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'reorderSteps', summary: 'Reorder all steps' })
  @ApiOkResponse({ type: StepOrderDto })
  @ApiErrors(400, 404, 409)
  reorderSteps(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Body() body: ReorderStepsDto,
  ): Promise<StepOrderDto> {
    return this.editor.reorderSteps(workspace, formId, body.step_ids, guardOf(body));
  }

  @Patch('steps/:step_id')
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'updateStep', summary: 'Change a step' })
  @EditBody('StepPatchRequest')
  @ApiOkResponse({ type: StepEditDto })
  @ApiErrors(400, 404, 409, 413)
  updateStep(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: unknown,
  ): Promise<StepEditDto> {
    const { guard, properties } = splitEditBody(body, { positioned: false });
    return this.editor.updateStep(workspace, formId, stepId, properties, guard);
  }

  @Delete('steps/:step_id')
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'deleteStep', summary: 'Delete a step and clean up references to it' })
  @GuardQuery()
  @ApiOkResponse({ type: DeletedStepDto })
  @ApiErrors(400, 404, 409)
  deleteStep(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<DeletedStepDto> {
    return this.editor.deleteStep(workspace, formId, stepId, deleteGuard(query, body));
  }

  @Post('steps/:step_id/move')
  @HttpCode(200)
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'moveStep', summary: 'Move one step to a position' })
  @ApiOkResponse({ type: MovedStepDto })
  @ApiErrors(400, 404, 409)
  moveStep(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: MoveStepDto,
  ): Promise<MovedStepDto> {
    return this.editor.moveStep(workspace, formId, stepId, body.position, guardOf(body));
  }

  @Post('steps/:step_id/fields')
  @HttpCode(201)
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'addField', summary: 'Add a field to a step' })
  @EditBody('AddFieldRequest')
  @ApiCreatedResponse({ type: FieldEditDto })
  @ApiErrors(400, 404, 409, 413)
  addField(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: unknown,
  ): Promise<FieldEditDto> {
    const { guard, position, properties } = splitEditBody(body, { positioned: true });
    return this.editor.addField(workspace, formId, stepId, properties, position, guard, this.paymentFields.forDrafts(workspace.workspaceId));
  }

  @Post('steps/:step_id/fields/reorder')
  @HttpCode(200)
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'reorderFields', summary: "Reorder all of a step's fields" })
  @ApiOkResponse({ type: FieldOrderDto })
  @ApiErrors(400, 404, 409)
  reorderFields(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: ReorderFieldsDto,
  ): Promise<FieldOrderDto> {
    return this.editor.reorderFields(workspace, formId, stepId, body.field_ids, guardOf(body));
  }

  @Put('steps/:step_id/logic')
  @RequireScopes('forms:logic:write')
  @ApiOperation({ operationId: 'updateStepLogic', summary: "Replace a step's rules and fallback target" })
  @ApiOkResponse({ type: StepLogicEditDto })
  @ApiErrors(400, 404, 409, 413)
  setLogic(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: StepLogicDto,
  ): Promise<StepLogicEditDto> {
    return this.editor.setStepLogic(workspace, formId, stepId, { rules: body.rules, fallbackTarget: body.fallbackTarget }, guardOf(body));
  }

  @Patch('fields/:field_id')
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'updateField', summary: 'Change a field' })
  @EditBody('FieldPatchRequest')
  @ApiOkResponse({ type: FieldEditDto })
  @ApiErrors(400, 404, 409, 413)
  updateField(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Body() body: unknown,
  ): Promise<FieldEditDto> {
    const { guard, properties } = splitEditBody(body, { positioned: false });
    return this.editor.updateField(workspace, formId, fieldId, properties, guard, (field, before) =>
      this.paymentFields.checkField(workspace.workspaceId, field, before),
    );
  }

  @Delete('fields/:field_id')
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'deleteField', summary: 'Delete a field and clean up references to it' })
  @GuardQuery()
  @ApiOkResponse({ type: DeletedFieldDto })
  @ApiErrors(400, 404, 409)
  deleteField(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
  ): Promise<DeletedFieldDto> {
    return this.editor.deleteField(workspace, formId, fieldId, deleteGuard(query, body));
  }

  @Post('fields/:field_id/move')
  @HttpCode(200)
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'moveField', summary: 'Move one field (within its step or to another step)' })
  @ApiOkResponse({ type: FieldEditDto })
  @ApiErrors(400, 404, 409)
  moveField(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Body() body: MoveFieldDto,
  ): Promise<FieldEditDto> {
    return this.editor.moveField(workspace, formId, fieldId, { stepId: body.stepId, position: body.position }, guardOf(body));
  }

  @Patch('design')
  @RequireScopes('forms:design:write')
  @ApiOperation({ operationId: 'patchDesign', summary: 'Merge theme properties into the draft theme' })
  @ApiOkResponse({ type: DesignEditDto })
  @ApiErrors(400, 404, 409, 413)
  patchDesign(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: DesignDto): Promise<DesignEditDto> {
    return this.editor.patchDesign(workspace, formId, body.theme, guardOf(body));
  }
}
