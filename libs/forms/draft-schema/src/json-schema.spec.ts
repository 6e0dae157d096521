import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { FIELD_CATALOGUE } from './catalogue';
import { COMPONENT_REF_PREFIX, draftJsonSchemas, fieldComponentName, type JsonSchema } from './json-schema';
import { FIELD_TYPES } from './model';
import { draft, realisticInput } from './test-support.fixture';

const schemas = draftJsonSchemas();

/** Strict Ajv over every component, reachable as `#/components/schemas/<name>` like in the OpenAPI document. */
function validator() {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addKeyword('discriminator');
  ajv.addKeyword('components');
  ajv.addSchema({ $id: 'pack', components: { schemas } });
  const compiled = new Map<string, ValidateFunction>();
  return (name: string, value: unknown) => {
    const validate = compiled.get(name) ?? ajv.compile({ $ref: `pack${COMPONENT_REF_PREFIX}${name}` });
    compiled.set(name, validate);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

const BY_TYPE: Record<string, Record<string, unknown>> = {
  single_choice: { options: [{ label: 'A' }] },
  multiple_choice: { options: [{ label: 'A' }] },
  dropdown: { options: [{ label: 'A' }] },
  ranking: { options: [{ label: 'A' }, { label: 'B' }] },
  hidden: { name: 'ref' },
  payment: { currency: 'USD', amount: { type: 'fixed', value: 100 } },
};

describe('draftJsonSchemas', () => {
  const validate = validator();

  it('compiles every component as strict JSON Schema 2020-12, with every $ref resolving', () => {
    for (const name of Object.keys(schemas)) expect(() => validate(name, null)).not.toThrow();
  });

  it('describes the stored shape: a parsed draft validates against DraftSchema', () => {
    expect(validate('DraftSchema', draft(realisticInput))).toEqual([]);
  });

  it('describes what requests may send: the loose input spellings validate against DraftSchemaInput', () => {
    expect(validate('DraftSchemaInput', realisticInput)).toEqual([]);
    expect(validate('DraftSchemaInput', { steps: [{ fields: [{ type: 'nope' }] }] })).not.toEqual([]);
  });

  it('keeps the output strict where the model is: an unknown property or a missing minted id fails', () => {
    const stored = draft(realisticInput);
    expect(validate('DraftSchema', { ...stored, extra: 1 })).not.toEqual([]);
    const { id: _id, ...stepWithoutId } = stored.steps[0];
    expect(validate('Step', stepWithoutId)).not.toEqual([]);
  });

  it.each(FIELD_TYPES.map((type) => [type]))('publishes %s with its own properties, told apart by type', (type) => {
    const variant = schemas[fieldComponentName(type, 'output')];
    expect(variant.description).toBe(FIELD_CATALOGUE[type].description);
    const properties = variant.properties as Record<string, JsonSchema>;
    for (const key of Object.keys(FIELD_CATALOGUE[type].properties))
      expect({ key, described: typeof properties[key]?.description }).toEqual({ key, described: 'string' });
    const stored = draft({ steps: [{ fields: [{ type, label: 'Q', ...BY_TYPE[type] }] }] }).steps[0].fields[0];
    expect(validate('Field', stored)).toEqual([]);
    expect(validate('FieldInput', { type, label: 'Q', ...BY_TYPE[type] })).toEqual([]);
    expect((schemas.Field.discriminator as { mapping: Record<string, string> }).mapping[type]).toBe(
      `${COMPONENT_REF_PREFIX}${fieldComponentName(type, 'output')}`,
    );
  });

  it('lets a field patch change the type and remove a property with null', () => {
    expect(validate('FieldPatch', { type: 'rating', max: 7, placeholder: null })).toEqual([]);
    expect(validate('FieldPatch', { nope: 1 })).not.toEqual([]);
    expect(validate('ThemePatch', { background: { type: 'color' }, customFont: null })).toEqual([]);
    expect(validate('StepPatch', { title: 'New', description: null })).toEqual([]);
    expect(validate('StepPatch', { fields: [] })).not.toEqual([]);
  });
});
