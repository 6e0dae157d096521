/** Size limits of a draft schema. Bounds the work of validating, storing and rendering one form. */
export const LIMITS = {
  /** Titles, labels, names, short texts. */
  label: 500,
  description: 5000,
  url: 2000,
  slug: 80,
  steps: 50,
  /** Across all steps. */
  fields: 200,
  optionsPerField: 100,
  rules: 200,
  conditionsPerRule: 50,
  actionsPerRule: 50,
  variables: 100,
  thankYouScreens: 20,
  quizEndings: 50,
  quizMappings: 2000,
  acceptEntries: 20,
  conditionValues: 100,
} as const;
