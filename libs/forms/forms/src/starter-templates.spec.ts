import { draftValidationReport, parseDraftSchema } from '@forms/draft-schema';
import { STARTER_TEMPLATES, starterTemplate } from './starter-templates';

describe('starter templates', () => {
  let next = 0;
  const ids = (prefix: string) => `${prefix}_${String(++next).padStart(4, '0')}`;

  it.each(STARTER_TEMPLATES.map((template) => [template.id, template] as const))('%s is a valid, publishable draft', (_id, template) => {
    const parsed = parseDraftSchema(template.draftSchema, ids);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    expect(draftValidationReport(parsed.value, { plan: 'free' })).toEqual({ valid: true, issues: [] });
    expect(parsed.value.settings.name).toBe((template.draftSchema.settings as { name: string }).name);
  });

  it('has unique ids and finds a template by id', () => {
    expect(new Set(STARTER_TEMPLATES.map((t) => t.id)).size).toBe(STARTER_TEMPLATES.length);
    expect(starterTemplate('nps_survey')?.name).toBe('NPS survey');
    expect(starterTemplate('nope')).toBeUndefined();
  });
});
