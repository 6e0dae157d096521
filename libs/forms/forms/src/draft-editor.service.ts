import { Injectable } from '@nestjs/common';
import {
  addField, addStep, deleteField, deleteStep, DraftSchema, fieldPositions, mergeTheme, moveField, moveStep, reorderFields, reorderSteps,
  setStepLogic, stepPositions, updateField, updateStep,
} from '@forms/draft-schema';
import type { Principal } from '@shared/auth';
import { FormsService, RevisionGuard } from './forms.service';

interface Revised {
  draft_revision: number;
  draft_updated_at: number;
}

/** Step, field, logic and design edits of a draft; each is one revision-checked draft write. */
@Injectable()
export class DraftEditor {
  constructor(private readonly forms: FormsService) {}

  addStep(p: Principal, formId: string, input: { title?: unknown; description?: unknown; fields?: unknown }, position: number | undefined, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const { schema: next, step } = addStep(schema, input, position, this.forms.ids);
      return { schema: next, result: { step } };
    });
  }

  updateStep(p: Principal, formId: string, stepId: string, patch: Record<string, unknown>, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const { schema: next, step } = updateStep(schema, stepId, patch);
      return { schema: next, result: { step } };
    });
  }

  deleteStep(p: Principal, formId: string, stepId: string, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => ({ schema: deleteStep(schema, stepId).schema, result: { ok: true as const, deleted_step_id: stepId } }));
  }

  reorderSteps(p: Principal, formId: string, stepIds: string[], guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const next = reorderSteps(schema, stepIds).schema;
      return { schema: next, result: { steps: stepPositions(next) } };
    });
  }

  moveStep(p: Principal, formId: string, stepId: string, position: number, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const { schema: next, step } = moveStep(schema, stepId, position);
      return { schema: next, result: { step, steps: stepPositions(next) } };
    });
  }

  addField(p: Principal, formId: string, stepId: string, input: Record<string, unknown>, position: number | undefined, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const { schema: next, field } = addField(schema, stepId, input, position, this.forms.ids);
      return { schema: next, result: { field } };
    });
  }

  updateField(p: Principal, formId: string, fieldId: string, patch: Record<string, unknown>, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const { schema: next, field } = updateField(schema, fieldId, patch, this.forms.ids);
      return { schema: next, result: { field } };
    });
  }

  deleteField(p: Principal, formId: string, fieldId: string, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => ({ schema: deleteField(schema, fieldId).schema, result: { ok: true as const, deleted_field_id: fieldId } }));
  }

  reorderFields(p: Principal, formId: string, stepId: string, fieldIds: string[], guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const next = reorderFields(schema, stepId, fieldIds).schema;
      return { schema: next, result: { fields: fieldPositions(next, stepId) } };
    });
  }

  moveField(p: Principal, formId: string, fieldId: string, target: { stepId?: string; position: number }, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const { schema: next, field } = moveField(schema, fieldId, target);
      return { schema: next, result: { field } };
    });
  }

  setStepLogic(p: Principal, formId: string, stepId: string, input: { rules: unknown; fallbackTarget?: unknown }, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const { schema: next, logic } = setStepLogic(schema, stepId, input, this.forms.ids);
      return { schema: next, result: { logic } };
    });
  }

  patchDesign(p: Principal, formId: string, theme: unknown, guard: RevisionGuard) {
    return this.write(p, formId, guard, (schema) => {
      const { schema: next, theme: merged } = mergeTheme(schema, theme);
      return { schema: next, result: { theme: merged } };
    });
  }

  private async write<T extends object>(p: Principal, formId: string, guard: RevisionGuard, edit: (schema: DraftSchema) => { schema: DraftSchema; result: T }): Promise<T & Revised> {
    const written = await this.forms.editDraft(p, formId, guard, edit);
    return { ...written.result, draft_revision: written.draft_revision, draft_updated_at: written.draft_updated_at };
  }
}
