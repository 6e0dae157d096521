/** Element ids shared by the server-rendered page and the client script. */
export const PAGE_IDS = {
  form: 'hosted-form',
  schema: 'form-schema',
  back: 'form-back',
  next: 'form-next',
  submit: 'form-submit',
  formError: 'form-error',
  announcer: 'form-announcer',
  progress: 'form-progress',
  progressLabel: 'form-progress-label',
} as const;

export const fieldInputId = (fieldId: string) => `f-${fieldId}`;
export const fieldErrorId = (fieldId: string) => `f-${fieldId}-error`;
export const fieldHintId = (fieldId: string) => `f-${fieldId}-hint`;
export const stepSectionId = (stepId: string) => `step-${stepId}`;
export const stepHeadingId = (stepId: string) => `step-${stepId}-title`;
export const screenSectionId = (screenId: string) => `ty-${screenId}`;
