import type { ScopeWords } from '@shared/browser-session';
import { FORMS_SCOPES } from '@forms/accounts';

const WORDS: Record<(typeof FORMS_SCOPES)[number], string> = {
  'forms:read': 'See your forms, their drafts and published versions',
  'forms:create': 'Create forms',
  'forms:update': 'Change form titles and whole drafts',
  'forms:delete': 'Delete forms',
  'forms:publish': 'Publish forms so people can fill them in',
  'forms:steps:write': 'Add, change and remove form steps',
  'forms:fields:write': 'Add, change and remove form fields',
  'forms:logic:write': 'Change form logic (conditions and routing)',
  'forms:design:write': 'Change form themes and design',
  'submissions:read': 'See and export form responses',
  'submissions:create': 'Submit responses to published forms',
};

/** The granted scopes in the service's own order, in plain words. */
export type { ScopeWords };

export function scopeWords(scopes: readonly string[]): ScopeWords[] {
  return FORMS_SCOPES.filter((scope) => scopes.includes(scope)).map((scope) => ({
    scope,
    text: WORDS[scope],
    changes: !scope.endsWith(':read'),
  }));
}
