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

/**
 * Ids of a form's own elements: a prefix, the field, step or screen id, then what the element is, joined by `.`, which
 * draft ids cannot contain (letters, digits, `_`, `-`). So no two elements share an id, whatever ids a form has: with
 * `-` the error slot of field `q` (`f-q-error`) was the control of field `q-error`. In CSS selectors write `[id="f.q"]`.
 */
const SEP = '.';
export const fieldInputId = (fieldId: string) => `f${SEP}${fieldId}`;
/** The id of one of a field's parts: an option (by its index, never its value), its error slot, hint, limits… */
export const fieldPartId = (fieldId: string, part: string | number) => `${fieldInputId(fieldId)}${SEP}${part}`;
export const fieldErrorId = (fieldId: string) => fieldPartId(fieldId, 'error');
export const fieldHintId = (fieldId: string) => fieldPartId(fieldId, 'hint');
export const stepSectionId = (stepId: string) => `step${SEP}${stepId}`;
export const stepHeadingId = (stepId: string) => `${stepSectionId(stepId)}${SEP}title`;
export const screenSectionId = (screenId: string) => `ty${SEP}${screenId}`;
export const screenHeadingId = (screenId: string) => `${screenSectionId(screenId)}${SEP}title`;
