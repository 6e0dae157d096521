import { EVENT_PATTERNS, EVENT_TYPES } from '@email/events';
import { parseEventPatterns, patternsMatch, scopesForPatterns } from './event-patterns';

describe('event patterns', () => {
  it('match an event by its exact name, its family wildcard or *', () => {
    expect(patternsMatch(['subscriber.created'], 'subscriber.created')).toBe(true);
    expect(patternsMatch(['subscriber.created'], 'subscriber.updated')).toBe(false);
    expect(patternsMatch(['subscriber.*'], 'subscriber.status_changed')).toBe(true);
    expect(patternsMatch(['landing_page.*'], 'landing_page.submitted')).toBe(true);
    expect(patternsMatch(['form.*'], 'landing_page.submitted')).toBe(false);
    expect(patternsMatch(['broadcast.*', 'automation.completed'], 'automation.entered')).toBe(false);
    for (const type of EVENT_TYPES) expect(patternsMatch(['*'], type)).toBe(true);
  });

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
