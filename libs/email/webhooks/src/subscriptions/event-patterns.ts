import { EVENT_PATTERNS } from '@email/events';
import { EmailErrors } from '@email/contracts';

/** The read scope each event family needs (`*` covers every family, so it needs them all). */
export const FAMILY_READ_SCOPES = {
  subscriber: 'subscribers:read',
  form: 'form_submissions:read',
  landing_page: 'landing_page_submissions:read',
  broadcast: 'broadcasts:read',
  automation: 'automations:read',
} as const;

const VALID = new Set<string>(EVENT_PATTERNS);

/** The patterns as given, duplicates dropped; a value that is not one of the fifteen is refused by name. */
export function parseEventPatterns(patterns: readonly string[]): string[] {
  if (!patterns.length) throw EmailErrors.invalid('invalid_event_pattern', 'event_patterns must name at least one event or pattern.', 'event_patterns');
  patterns.forEach((pattern, index) => {
    if (!VALID.has(pattern)) {
      throw EmailErrors.invalid(
        'invalid_event_pattern',
        `"${pattern}" is not an event name or pattern; use one of ${EVENT_PATTERNS.join(', ')}.`,
        `event_patterns[${index}]`,
      );
    }
  });
  return [...new Set(patterns)];
}

/** The read scopes subscribing to these patterns needs, in family order. */
export function scopesForPatterns(patterns: readonly string[]): string[] {
  const families = Object.keys(FAMILY_READ_SCOPES) as Array<keyof typeof FAMILY_READ_SCOPES>;
  const wanted = patterns.includes('*') ? families : families.filter((family) => patterns.some((pattern) => pattern.split('.')[0] === family));
  return wanted.map((family) => FAMILY_READ_SCOPES[family]);
}
