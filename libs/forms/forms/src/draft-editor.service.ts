import { Injectable } from '@nestjs/common';
import {
  addField,
  addStep,
  deleteField,
  deleteStep,
  DraftSchema,
  Field,
  fieldPositions,
  findField,
  mergeTheme,
  moveField,
  moveStep,
  reorderFields,
  reorderSteps,
  setStepLogic,
  stepPositions,
  updateField,
  updateStep,
} from '@forms/draft-schema';
import { asEditCheck, DraftCheck, FormsService, RevisionGuard } from './forms.service';
import type { FormsWorkspaceContext } from './workspace-context';

interface Revised {
  draft_revision: number;
  draft_updated_at: number;
}

/**
 * Step, field, logic and design edits of a draft; each is one revision-checked draft write. The edits that can add a
 * field take a `check` (the payments module's rules for a payment field) that may refuse the edited draft.
 */
@Injectable()
export class DraftEditor {
  constructor(private readonly forms: FormsService) {}

  addStep(
    workspace: FormsWorkspaceContext,
    formId: string,
    input: { title?: unknown; description?: unknown; fields?: unknown },
    position: number | undefined,
    guard: RevisionGuard,
    check?: DraftCheck,
  ) {
    return this.write(
      workspace,
      formId,
      guard,
      (schema) => {
        const { schema: next, step } = addStep(schema, input, position, this.forms.ids);
        return { schema: next, result: { step } };
      },
      asEditCheck(check),
    );
  }

  updateStep(workspace: FormsWorkspaceContext, formId: string, stepId: string, patch: Record<string, unknown>, guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => {
      const { schema: next, step } = updateStep(schema, stepId, patch);
      return { schema: next, result: { step } };
    });
  }

  deleteStep(workspace: FormsWorkspaceContext, formId: string, stepId: string, guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => ({
      schema: deleteStep(schema, stepId).schema,
      result: { ok: true as const, deleted_step_id: stepId },
    }));
  }

  reorderSteps(workspace: FormsWorkspaceContext, formId: string, stepIds: string[], guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => {
      const next = reorderSteps(schema, stepIds).schema;
      return { schema: next, result: { steps: stepPositions(next) } };
    });
  }

  moveStep(workspace: FormsWorkspaceContext, formId: string, stepId: string, position: number, guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => {
      const { schema: next, step } = moveStep(schema, stepId, position);
      return { schema: next, result: { step, steps: stepPositions(next) } };
    });
  }

  addField(
    workspace: FormsWorkspaceContext,
    formId: string,
    stepId: string,
    input: Record<string, unknown>,
    position: number | undefined,
    guard: RevisionGuard,
    check?: DraftCheck,
  ) {
    return this.write(
      workspace,
      formId,
      guard,
      (schema) => {
        const { schema: next, field } = addField(schema, stepId, input, position, this.forms.ids);
        return { schema: next, result: { field } };
      },
      asEditCheck(check),
    );
  }

  /** `checkField` may refuse the changed field before it is stored (the payments module's rules for a payment field). */
  updateField(
    workspace: FormsWorkspaceContext,
    formId: string,
    fieldId: string,
    patch: Record<string, unknown>,
    guard: RevisionGuard,
    checkField?: (field: Field, before: Field) => Promise<void>,
  ) {
    let before: Field;
    return this.write(
      workspace,
      formId,
      guard,
      (schema) => {
        before = findField(schema, fieldId)?.field as Field;
        const { schema: next, field } = updateField(schema, fieldId, patch, this.forms.ids);
        return { schema: next, result: { field } };
      },
      checkField && ((edited) => checkField(edited.result.field, before)),
    );
  }

  deleteField(workspace: FormsWorkspaceContext, formId: string, fieldId: string, guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => ({
      schema: deleteField(schema, fieldId).schema,
      result: { ok: true as const, deleted_field_id: fieldId },
    }));
  }

  reorderFields(workspace: FormsWorkspaceContext, formId: string, stepId: string, fieldIds: string[], guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => {
      const next = reorderFields(schema, stepId, fieldIds).schema;
      return { schema: next, result: { fields: fieldPositions(next, stepId) } };
    });
  }

  moveField(workspace: FormsWorkspaceContext, formId: string, fieldId: string, target: { stepId?: string; position: number }, guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => {
      const { schema: next, field } = moveField(schema, fieldId, target);
      return { schema: next, result: { field } };
    });
  }

  setStepLogic(workspace: FormsWorkspaceContext, formId: string, stepId: string, input: { rules: unknown; fallbackTarget?: unknown }, guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => {
      const { schema: next, logic } = setStepLogic(schema, stepId, input, this.forms.ids);
      return { schema: next, result: { logic } };
    });
  }

  patchDesign(workspace: FormsWorkspaceContext, formId: string, theme: unknown, guard: RevisionGuard) {
    return this.write(workspace, formId, guard, (schema) => {
      const { schema: next, theme: merged } = mergeTheme(schema, theme);
      return { schema: next, result: { theme: merged } };
    });
  }

  private async write<T extends object>(
    workspace: FormsWorkspaceContext,
    formId: string,
    guard: RevisionGuard,
    edit: (schema: DraftSchema) => { schema: DraftSchema; result: T },
    check?: (edited: { schema: DraftSchema; result: T }, before: DraftSchema) => Promise<void>,
  ): Promise<T & Revised> {
    const written = await this.forms.editDraft(workspace, formId, guard, edit, check);
    return { ...written.result, draft_revision: written.draft_revision, draft_updated_at: written.draft_updated_at };
  }
}
