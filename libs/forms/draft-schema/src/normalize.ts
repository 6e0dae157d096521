import type { z } from 'zod';
import type { IdSource } from './issues';
import type { Field, FormSettings, Quiz, Step, Workflow } from './model';
import type { fieldSchema, stepSchema } from './schemas/fields';
import type { quizSchema } from './schemas/quiz';
import type { settingsSchema } from './schemas/settings';
import type { workflowSchema } from './schemas/workflow';

/** Gives an object its id (minting one when missing) as the first key, so stored key order is stable. */
function withId<T extends { id?: string }>(value: T, prefix: string, ids: IdSource): Omit<T, 'id'> & { id: string } {
  const { id, ...rest } = value;
  return { id: id ?? ids(prefix), ...rest };
}

// Ids are minted in document order, so a deterministic IdSource gives deterministic drafts.

function fieldWithIds(input: z.output<typeof fieldSchema>, ids: IdSource): Field {
  const field = withId(input, 'fld', ids) as Field;
  return 'options' in field ? { ...field, options: field.options.map((o) => withId(o, 'opt', ids)) } : field;
}

export function stepsWithIds(steps: z.output<typeof stepSchema>[], ids: IdSource): Step[] {
  return steps.map((step) => {
    const withStepId = withId(step, 'stp', ids);
    return { ...withStepId, fields: step.fields.map((f) => fieldWithIds(f, ids)) };
  });
}

export function settingsWithIds(settings: z.output<typeof settingsSchema>, ids: IdSource): FormSettings {
  return {
    ...settings,
    hidden: { ...settings.hidden, variables: settings.hidden.variables.map((v) => withId(v, 'var', ids)) },
    submissions: { ...settings.submissions, thankYouScreens: settings.submissions.thankYouScreens.map((s) => withId(s, 'tys', ids)) },
  };
}

export function workflowWithIds(workflow: z.output<typeof workflowSchema>, ids: IdSource): Workflow {
  return {
    ...workflow,
    rules: workflow.rules.map((rule) => {
      const withRuleId = withId(rule, 'rul', ids);
      return {
        ...withRuleId,
        conditions: rule.conditions.map((c) => withId(c, 'cnd', ids)),
        actions: rule.actions.map((a) => withId(a, 'act', ids)),
      };
    }),
  };
}

export function quizWithIds(quiz: z.output<typeof quizSchema>, ids: IdSource): Quiz {
  return { ...quiz, endings: quiz.endings.map((e) => withId(e, 'end', ids)), mappings: quiz.mappings.map((m) => withId(m, 'map', ids)) };
}
