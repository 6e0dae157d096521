/**
 * The draft schema's zod models as JSON Schema (2020-12, the dialect of OpenAPI 3.1), for the forms API's schema pack.
 * Server-only: the hosted page's bundle takes `model` and `answers` alone, so zod's converter never reaches a browser.
 *
 * Each model is converted twice: as input (what a request may send: defaults optional, looser spellings such as
 * target strings) and as output (the stored shape every response carries). Ids are minted after zod parses
 * (`normalize.ts`), so in the output every object with an `id` property is marked as having one.
 */
import { z } from 'zod';
import { COMMON_FIELD_PROPERTIES, FIELD_CATALOGUE } from './catalogue';
import { FIELD_TYPES, type FieldType } from './model';
import { id } from './schemas/common';
import { draftSections } from './schemas/draft';
import { fieldSchema, optionSchema, stepSchema } from './schemas/fields';
import { quizSchema } from './schemas/quiz';
import { settingsSchema, thankYouScreenSchema } from './schemas/settings';
import { themeSchema } from './schemas/theme';
import { ruleSchema, targetSchema, workflowSchema } from './schemas/workflow';

export type JsonSchema = { [keyword: string]: unknown };
type Io = 'input' | 'output';

/** Where the converted schemas sit in an OpenAPI document; every `$ref` between them points here. */
export const COMPONENT_REF_PREFIX = '#/components/schemas/';

/** Models converted both ways; the input one is named with an `Input` suffix. */
const MODELS = {
  Step: stepSchema,
  Field: fieldSchema,
  ChoiceOption: optionSchema,
  FormSettings: settingsSchema,
  ThankYouScreen: thankYouScreenSchema,
  Theme: themeSchema,
  Workflow: workflowSchema,
  WorkflowRule: ruleSchema,
  Target: targetSchema,
  Quiz: quizSchema,
};
type Model = keyof typeof MODELS;

const DESCRIPTIONS: Partial<Record<Model | 'DraftSchema', string>> = {
  DraftSchema: 'A form draft as stored and returned: steps with their fields, settings, theme, workflow and (optionally) quiz.',
  Step: 'A page of the form with its fields, in order.',
  Field: 'A question or display element; `type` selects its own properties (see the field catalogue).',
  Target: 'Where a step leads: the end of the form, a later step, or a thank-you screen.',
  Theme: 'Colours, background and font of the hosted form.',
};

const pascal = (type: FieldType) =>
  type
    .split('_')
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');

/** The component a field type's own schema is published under, e.g. `SingleChoiceField`, `SingleChoiceFieldInput`. */
export const fieldComponentName = (type: FieldType, io: Io): string => `${pascal(type)}Field${io === 'input' ? 'Input' : ''}`;

/** Named components whose names DTOs may reference. */
export type DraftComponentName =
  Model | `${Model}Input` | 'DraftSchema' | 'DraftSchemaInput' | 'StepLogic' | 'StepRuleInput' | 'StepPatch' | 'FieldPatch' | 'ThemePatch';

export const draftComponentRef = (name: DraftComponentName): string => `${COMPONENT_REF_PREFIX}${name}`;

type Component = [name: string, schema: z.ZodType, description?: string];

/** The models published for one direction, each with its component name. */
function components(io: Io): Component[] {
  const suffix = io === 'input' ? 'Input' : '';
  const draft =
    io === 'input'
      ? z.strictObject({ ...draftSections, quiz: draftSections.quiz.nullable().optional() })
      : z.strictObject({ ...draftSections, quiz: draftSections.quiz.optional() });
  return [
    [`DraftSchema${suffix}`, draft, DESCRIPTIONS.DraftSchema],
    ...Object.entries(MODELS).map(([name, schema]): Component => [`${name}${suffix}`, schema, DESCRIPTIONS[name as Model]]),
    ...fieldSchema.options.map((variant): Component => {
      const type = variant.shape.type.value;
      return [fieldComponentName(type, io), variant, FIELD_CATALOGUE[type].description];
    }),
    io === 'output'
      ? [
          'StepLogic',
          z.strictObject({ stepId: id, rules: z.array(ruleSchema), fallbackTarget: targetSchema.nullable() }),
          "A step's rules and fallback target.",
        ]
      : ['StepRuleInput', ruleSchema.extend({ stepId: id.optional() }), 'A rule of the step whose logic is set; `stepId` may be left out.'],
  ];
}

const SAFE_INTEGER_BOUNDS = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

function convert(io: Io): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const published = components(io);
  for (const [name, schema] of published) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (name) => `${COMPONENT_REF_PREFIX}${name}`,
    override: ({ jsonSchema }) => tidy(jsonSchema as JsonSchema, io),
  });
  return Object.fromEntries(
    published.map(([name, , description]) => {
      const { $schema: _dialect, $id: _id, ...schema } = schemas[name];
      return [name, { ...(description ? { description } : {}), ...schema }];
    }),
  );
}

/** Drops zod's safe-integer bounds on plain integers and, in the output, marks minted ids as always present. */
function tidy(schema: JsonSchema, io: Io): void {
  if (schema.type === 'integer') {
    if (schema.minimum === SAFE_INTEGER_BOUNDS[0]) delete schema.minimum;
    if (schema.maximum === SAFE_INTEGER_BOUNDS[1]) delete schema.maximum;
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (io === 'output' && properties?.id) {
    const required = (schema.required as string[] | undefined) ?? [];
    if (!required.includes('id')) schema.required = ['id', ...required];
  }
}

/** Each field type's description and its properties' descriptions, from the field catalogue. */
function describeFieldVariants(schemas: Record<string, JsonSchema>, io: Io): void {
  for (const type of FIELD_TYPES) {
    const variant = schemas[fieldComponentName(type, io)];
    const properties = variant.properties as Record<string, JsonSchema>;
    for (const [key, property] of Object.entries(properties)) {
      const doc = FIELD_CATALOGUE[type].properties[key] ?? COMMON_FIELD_PROPERTIES[key];
      if (doc && property.description === undefined) property.description = doc.description;
    }
  }
}

/** `Field` and `FieldInput` are a `oneOf` over the field types, told apart by `type`. */
function discriminate(schemas: Record<string, JsonSchema>, io: Io): void {
  const name = io === 'input' ? 'FieldInput' : 'Field';
  const mapping = Object.fromEntries(FIELD_TYPES.map((type) => [type, `${COMPONENT_REF_PREFIX}${fieldComponentName(type, io)}`]));
  schemas[name] = { ...schemas[name], oneOf: Object.values(mapping).map(($ref) => ({ $ref })), discriminator: { propertyName: 'type', mapping } };
}

const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/** An RFC 7396-style patch of an object schema: every property optional, and null removes it. */
function mergePatchOf(schema: JsonSchema, omit: readonly string[] = [], keep: Record<string, JsonSchema> = {}): JsonSchema {
  const properties = Object.entries(schema.properties as Record<string, JsonSchema>)
    .filter(([key]) => !omit.includes(key))
    .map(([key, property]) => [key, keep[key] ?? orNull(property)]);
  return { type: 'object', properties: Object.fromEntries(properties), additionalProperties: false };
}

/** Every property any field type has (a patch may change the type), each alternative once. */
function fieldPatch(schemas: Record<string, JsonSchema>): JsonSchema {
  const alternatives = new Map<string, Map<string, JsonSchema>>();
  for (const type of FIELD_TYPES) {
    for (const [key, property] of Object.entries(schemas[fieldComponentName(type, 'input')].properties as Record<string, JsonSchema>)) {
      if (key === 'id' || key === 'type') continue;
      const seen = alternatives.get(key) ?? new Map<string, JsonSchema>();
      seen.set(JSON.stringify(property), property);
      alternatives.set(key, seen);
    }
  }
  const union = Object.fromEntries([...alternatives].map(([key, seen]) => [key, seen.size === 1 ? [...seen.values()][0] : { anyOf: [...seen.values()] }]));
  const patch = mergePatchOf({ properties: union });
  return {
    description: "Changes to a field. null removes a property (a stored default comes back); a new `type` drops the old type's own properties.",
    ...patch,
    properties: { type: { type: 'string', enum: [...FIELD_TYPES] }, ...(patch.properties as Record<string, JsonSchema>) },
  };
}

/**
 * Every draft schema component: the stored shape (`DraftSchema`, `Step`, `Field` and one schema per field type, …),
 * the accepted input (`DraftSchemaInput`, `FieldInput`, …) and the patches the editing operations take.
 */
export function draftJsonSchemas(): Record<string, JsonSchema> {
  const output = convert('output');
  const input = convert('input');
  for (const [schemas, io] of [
    [output, 'output'],
    [input, 'input'],
  ] as const) {
    describeFieldVariants(schemas, io);
    discriminate(schemas, io);
  }
  const theme = input.ThemeInput;
  const background = (theme.properties as Record<string, JsonSchema>).background;
  return {
    ...output,
    ...input,
    StepPatch: { description: "Changes to a step's own properties; null removes one.", ...mergePatchOf(input.StepInput, ['id', 'fields']) },
    FieldPatch: fieldPatch(input),
    ThemePatch: {
      description: 'Merged into the draft theme: keys replace, `background` merges key by key, null removes a key (a required one returns to its default).',
      ...mergePatchOf(theme, [], { background: orNull(mergePatchOf(background)) }),
    },
  };
}
