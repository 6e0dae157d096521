import { z } from 'zod';
import { LIMITS } from '../limits';
import { stepSchema } from './fields';
import { quizSchema } from './quiz';
import { settingsSchema } from './settings';
import { themeSchema } from './theme';
import { workflowSchema } from './workflow';

/** The top-level sections of a draft schema, each parsed on its own (see `parseDraft`). */
export const draftSections = {
  version: z.literal(1).default(1),
  steps: z.array(stepSchema).min(1).max(LIMITS.steps),
  settings: settingsSchema,
  theme: themeSchema,
  workflow: workflowSchema,
  quiz: quizSchema,
};
