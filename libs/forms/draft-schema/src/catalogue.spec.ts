import { COMMON_FIELD_PROPERTIES, FIELD_CATALOGUE } from './catalogue';
import { FIELD_TYPES } from './model';
import { COMMON_FIELD_KEYS, TYPE_PROPERTY_KEYS } from './schemas/fields';
import { draft } from './test-support.fixture';

const REQUIRED_INPUT: Record<string, Record<string, unknown>> = {
  hidden: { name: 'ref' },
  payment: { currency: 'USD', amount: 100 },
};

describe('FIELD_CATALOGUE', () => {
  it('documents every field type', () => {
    expect(Object.keys(FIELD_CATALOGUE).sort()).toEqual([...FIELD_TYPES].sort());
    expect(Object.keys(COMMON_FIELD_PROPERTIES).sort()).toEqual([...COMMON_FIELD_KEYS].sort());
  });

  it.each(FIELD_TYPES.map((t) => [t]))('lists exactly the properties the validator accepts for %s', (type) => {
    expect(Object.keys(FIELD_CATALOGUE[type].properties).sort()).toEqual([...TYPE_PROPERTY_KEYS[type]].sort());
  });

  it.each(FIELD_TYPES.map((t) => [t]))('states the defaults the validator applies for %s', (type) => {
    const required = REQUIRED_INPUT[type] ?? {};
    const field = draft({ steps: [{ fields: [{ type, ...required }] }] }).steps[0].fields[0] as unknown as Record<string, unknown>;
    for (const [key, doc] of Object.entries(FIELD_CATALOGUE[type].properties)) {
      if ('default' in doc) expect({ key, value: field[key] }).toEqual({ key, value: doc.default });
      else if (!(key in required)) expect({ key, present: key in field }).toEqual({ key, present: false });
    }
  });
});
