/** API-key scopes of the forms service. */
export const FORMS_SCOPES = [
  'forms:read',
  'forms:create',
  'forms:update',
  'forms:delete',
  'forms:publish',
  'forms:steps:write',
  'forms:fields:write',
  'forms:logic:write',
  'forms:design:write',
  'submissions:read',
  'submissions:create',
] as const;

export type FormsScope = (typeof FORMS_SCOPES)[number];

export function isFormsScope(value: string): value is FormsScope {
  return (FORMS_SCOPES as readonly string[]).includes(value);
}
