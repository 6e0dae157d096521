import { z } from 'zod';
import { LIMITS } from '../limits';
import { CONDITION_OPERATORS, NUMBER_OPERATIONS, type Target } from '../model';
import { parseTarget, TARGET_SPELLINGS } from '../targets';
import { coded, id, label } from './common';

/** The stored form of a target. */
const targetObject = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('end') }),
  z.strictObject({ type: z.literal('step'), stepId: id }),
  z.strictObject({ type: z.literal('thank_you'), screenId: id }),
]);

/** Any accepted target spelling, normalized to the object form. */
export const targetSchema = z
  .unknown()
  .meta({ anyOf: [{ type: 'string', description: '"end", a step id or "thank_you:<screen_id>"' }, { type: 'object' }], description: `${TARGET_SPELLINGS}.` })
  .transform((value, ctx): Target => {
    const target = parseTarget(value);
    if (target) return target;
    ctx.addIssue({ code: 'custom', ...coded('invalid_target', `Use ${TARGET_SPELLINGS}.`) });
    return z.NEVER;
  })
  .pipe(targetObject);

const subject = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('field'), fieldId: id }),
  z.strictObject({ type: z.literal('variable'), variableId: id }),
  z.strictObject({ type: z.literal('score') }),
]);

const operand = z.discriminatedUnion('type', [
  ...subject.options,
  z.strictObject({ type: z.literal('number'), value: z.number() }),
  z.strictObject({ type: z.literal('text'), value: label }),
]);

const condition = z.strictObject({
  id: id.optional(),
  subject,
  operator: z.enum(CONDITION_OPERATORS),
  value: z.union([label, z.number(), z.boolean(), z.array(label).max(LIMITS.conditionValues)]).optional(),
});

const OPERATIONS = [...NUMBER_OPERATIONS, 'append', 'prepend'] as const;

const action = z.strictObject({
  id: id.optional(),
  variableId: id,
  operation: z.enum(OPERATIONS),
  operand: operand.optional(),
});

export const ruleSchema = z.strictObject({
  id: id.optional(),
  stepId: id,
  match: z.enum(['all', 'any']).default('all'),
  conditions: z
    .array(condition)
    .max(LIMITS.conditionsPerRule)
    .default(() => []),
  actions: z
    .array(action)
    .max(LIMITS.actionsPerRule)
    .default(() => []),
  target: targetSchema.optional(),
});

export const workflowSchema = z
  .strictObject({
    version: z.literal(1).default(1),
    enabled: z.boolean().default(true),
    rules: z
      .array(ruleSchema)
      .max(LIMITS.rules)
      .default(() => []),
    fallbacks: z.record(id, targetSchema).default(() => ({})),
  })
  .prefault({});
