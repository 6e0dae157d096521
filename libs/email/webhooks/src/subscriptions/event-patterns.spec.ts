import { EVENT_PATTERNS } from '@email/events';
import { parseEventPatterns, scopesForPatterns } from './event-patterns';

describe('event patterns', () => {
  it('accept the fifteen values, dropping repeats, and name the first one refused', () => {
    expect(parseEventPatterns([...EVENT_PATTERNS])).toEqual([...EVENT_PATTERNS]);
    expect(parseEventPatterns(['form.*', 'form.*', '*'])).toEqual(['form.*', '*']);
    expect(() => parseEventPatterns(['form.*', 'form.deleted'])).toThrow('"form.deleted" is not an event name or pattern');
    expect(() => parseEventPatterns([])).toThrow('at least one');
  });

  it('need the read scope of each family named', () => {
    expect(scopesForPatterns(['subscriber.created', 'subscriber.*'])).toEqual(['subscribers:read']);
    expect(scopesForPatterns(['automation.entered', 'form.submitted'])).toEqual(['form_submissions:read', 'automations:read']);
    expect(scopesForPatterns(['*'])).toHaveLength(5);
  });
});
