import { z } from 'zod';
import { LIMITS } from '../limits';
import { id, label } from './common';

const ending = z.strictObject({
  id: id.optional(),
  screenId: id,
  title: label.optional(),
  minScore: z.number().optional(),
  maxScore: z.number().optional(),
});

const mapping = z.strictObject({
  id: id.optional(),
  fieldId: id,
  optionValue: label.min(1),
  endingId: id.optional(),
  points: z.number().default(1),
});

export const quizSchema = z.strictObject({
  enabled: z.boolean().default(true),
  type: z.enum(['match', 'score']).default('match'),
  mode: z.enum(['match', 'personality']).optional(),
  endings: z
    .array(ending)
    .max(LIMITS.quizEndings)
    .default(() => []),
  mappings: z
    .array(mapping)
    .max(LIMITS.quizMappings)
    .default(() => []),
});
