import { Body, Controller, Delete, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScopes } from '@shared/auth';
import {
  DesignDto,
  DraftEditor,
  FormsWorkspaceContext,
  FormWorkspace,
  guardFromQuery,
  MoveFieldDto,
  MoveStepDto,
  ReorderFieldsDto,
  ReorderStepsDto,
  splitEditBody,
  StepLogicDto,
} from '@forms/forms';

const guardOf = (body: { draft_revision?: number; force?: boolean }) => ({ draft_revision: body.draft_revision, force: body.force });

/** Step, field, logic and design edits of a form's draft. */
@ApiTags('Draft editing')
@ApiBearerAuth()
@Controller('api/v1/forms/:form_id')
export class DraftEditsController {
  constructor(private readonly editor: DraftEditor) {}

  @Post('steps')
  @HttpCode(201)
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'addStep', summary: 'Add a step (appended, or inserted at position)' })
  addStep(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: unknown) {
    const { guard, position, properties } = splitEditBody(body, { positioned: true });
    return this.editor.addStep(workspace, formId, properties, position, guard);
  }

  // Declared before `steps/:step_id` routes so `reorder` is never read as a step id.
  @Post('steps/reorder')
  @HttpCode(200)
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'reorderSteps', summary: 'Reorder all steps' })
  reorderSteps(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: ReorderStepsDto) {
    return this.editor.reorderSteps(workspace, formId, body.step_ids, guardOf(body));
  }

  @Patch('steps/:step_id')
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'updateStep', summary: 'Change a step' })
  updateStep(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: unknown,
  ) {
    const { guard, properties } = splitEditBody(body, { positioned: false });
    return this.editor.updateStep(workspace, formId, stepId, properties, guard);
  }

  @Delete('steps/:step_id')
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'deleteStep', summary: 'Delete a step and clean up references to it' })
  deleteStep(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.editor.deleteStep(workspace, formId, stepId, guardFromQuery(query));
  }

  @Post('steps/:step_id/move')
  @HttpCode(200)
  @RequireScopes('forms:steps:write')
  @ApiOperation({ operationId: 'moveStep', summary: 'Move one step to a position' })
  moveStep(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: MoveStepDto,
  ) {
    return this.editor.moveStep(workspace, formId, stepId, body.position, guardOf(body));
  }

  @Post('steps/:step_id/fields')
  @HttpCode(201)
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'addField', summary: 'Add a field to a step' })
  addField(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Param('step_id') stepId: string, @Body() body: unknown) {
    const { guard, position, properties } = splitEditBody(body, { positioned: true });
    return this.editor.addField(workspace, formId, stepId, properties, position, guard);
  }

  @Post('steps/:step_id/fields/reorder')
  @HttpCode(200)
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'reorderFields', summary: "Reorder all of a step's fields" })
  reorderFields(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: ReorderFieldsDto,
  ) {
    return this.editor.reorderFields(workspace, formId, stepId, body.field_ids, guardOf(body));
  }

  @Put('steps/:step_id/logic')
  @RequireScopes('forms:logic:write')
  @ApiOperation({ operationId: 'updateStepLogic', summary: "Replace a step's rules and fallback target" })
  setLogic(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('step_id') stepId: string,
    @Body() body: StepLogicDto,
  ) {
    return this.editor.setStepLogic(workspace, formId, stepId, { rules: body.rules, fallbackTarget: body.fallbackTarget }, guardOf(body));
  }

  @Patch('fields/:field_id')
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'updateField', summary: 'Change a field' })
  updateField(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Body() body: unknown,
  ) {
    const { guard, properties } = splitEditBody(body, { positioned: false });
    return this.editor.updateField(workspace, formId, fieldId, properties, guard);
  }

  @Delete('fields/:field_id')
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'deleteField', summary: 'Delete a field and clean up references to it' })
  deleteField(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Query() query: Record<string, unknown>,
  ) {
    return this.editor.deleteField(workspace, formId, fieldId, guardFromQuery(query));
  }

  @Post('fields/:field_id/move')
  @HttpCode(200)
  @RequireScopes('forms:fields:write')
  @ApiOperation({ operationId: 'moveField', summary: 'Move one field (within its step or to another step)' })
  moveField(
    @FormWorkspace('edit') workspace: FormsWorkspaceContext,
    @Param('form_id') formId: string,
    @Param('field_id') fieldId: string,
    @Body() body: MoveFieldDto,
  ) {
    return this.editor.moveField(workspace, formId, fieldId, { stepId: body.stepId, position: body.position }, guardOf(body));
  }

  @Patch('design')
  @RequireScopes('forms:design:write')
  @ApiOperation({ operationId: 'patchDesign', summary: 'Merge theme properties into the draft theme' })
  patchDesign(@FormWorkspace('edit') workspace: FormsWorkspaceContext, @Param('form_id') formId: string, @Body() body: DesignDto) {
    return this.editor.patchDesign(workspace, formId, body.theme, guardOf(body));
  }
}
