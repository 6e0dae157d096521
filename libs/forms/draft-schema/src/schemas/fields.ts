import { z } from 'zod';
import { FIELD_DEFAULTS } from '../defaults';
import { ACCEPT_PATTERN, CURRENCY_PATTERN, HIDDEN_NAME_PATTERN, isCalendarDate } from '../formats';
import { LIMITS } from '../limits';
import { FIELD_TYPES, PAYMENT_PROVIDERS, type FieldType } from '../model';
import { COUNTRY_CALLING_CODES } from '../phone';
import { coded, description, httpUrl, id, label, matching, nonEmptyLabel } from './common';

const optionShape = { id: id.optional(), label: nonEmptyLabel, value: nonEmptyLabel.optional(), imageUrl: httpUrl.optional() };
/** A choice option: `value` defaults to the label; the output shape is stated so it converts to JSON Schema. */
export const optionSchema = z
  .strictObject(optionShape)
  .transform(({ value, ...rest }) => ({ ...rest, value: value ?? rest.label }))
  .pipe(z.strictObject({ ...optionShape, value: nonEmptyLabel }));

const calendarDate = z.string().refine(isCalendarDate, coded('invalid_date', 'Use a real date written YYYY-MM-DD.')).meta({ format: 'date' });
const count = (min: number, max: number) => z.int().min(min).max(max);

/** Properties every field has, in stored key order (`type` goes second). */
const common = {
  id: id.optional(),
  label: label.default(''),
  description: description.optional(),
  required: z.boolean().default(false),
  placeholder: label.optional(),
};
/** Statement and hidden fields collect nothing the respondent must give. */
const neverRequired = z.literal(false).default(false);

const options = z
  .array(optionSchema)
  .max(LIMITS.optionsPerField)
  .default(() => []);

/** Each field type's own properties. FIELD_CATALOGUE documents the same keys. */
const TYPE_PROPERTIES = {
  text: { minLength: count(0, 10_000).optional(), maxLength: count(1, 10_000).optional() },
  long_text: { minLength: count(0, 10_000).optional(), maxLength: count(1, 10_000).optional() },
  email: {},
  number: { min: z.number().optional(), max: z.number().optional(), allowDecimals: z.boolean().optional() },
  phone: {
    defaultCountry: z
      .string()
      .refine((c) => c in COUNTRY_CALLING_CODES, coded('unsupported_country', `Use one of: ${Object.keys(COUNTRY_CALLING_CODES).join(', ')}.`))
      .optional(),
  },
  url: {},
  date: { minDate: calendarDate.optional(), maxDate: calendarDate.optional() },
  time: {},
  single_choice: { options, allowOther: z.boolean().optional() },
  multiple_choice: { options, minSelections: count(0, LIMITS.optionsPerField).optional(), maxSelections: count(1, LIMITS.optionsPerField).optional() },
  dropdown: { options },
  checkbox: {},
  rating: { max: count(3, 10).default(FIELD_DEFAULTS.rating.max), icon: z.enum(['star', 'heart', 'thumb']).default(FIELD_DEFAULTS.rating.icon) },
  opinion_scale: {
    min: count(0, 1).default(FIELD_DEFAULTS.opinion_scale.min),
    max: count(5, 10).default(FIELD_DEFAULTS.opinion_scale.max),
    minLabel: label.optional(),
    maxLabel: label.optional(),
  },
  nps: { minLabel: label.optional(), maxLabel: label.optional() },
  ranking: { options },
  file_upload: {
    maxFiles: count(1, 10).default(FIELD_DEFAULTS.file_upload.maxFiles),
    maxSizeMb: count(1, 25).default(FIELD_DEFAULTS.file_upload.maxSizeMb),
    accept: z
      .array(z.string().refine((a) => ACCEPT_PATTERN.test(a), coded('invalid_accept', 'Use a MIME type (image/png, image/*) or an extension (.pdf).')))
      .max(LIMITS.acceptEntries)
      .default(() => []),
  },
  signature: {},
  statement: { required: neverRequired },
  hidden: {
    required: neverRequired,
    name: matching(HIDDEN_NAME_PATTERN, 'invalid_name', 'Use 1–64 letters, digits, "_" or "-".'),
    dataType: z.enum(['text', 'number']).default(FIELD_DEFAULTS.hidden.dataType),
    defaultValue: label.optional(),
  },
  payment: {
    currency: matching(CURRENCY_PATTERN, 'invalid_currency', 'Use a three-letter ISO 4217 code in capitals (USD).'),
    provider: z.enum(PAYMENT_PROVIDERS).optional(),
    // A bare number is a fixed amount in minor units.
    amount: z.preprocess(
      (v) => (typeof v === 'number' ? { type: 'fixed', value: v } : v),
      z.discriminatedUnion('type', [
        z.strictObject({ type: z.literal('fixed'), value: z.int().min(0) }),
        z.strictObject({ type: z.literal('field'), fieldId: id }),
        z.strictObject({ type: z.literal('variable'), variableId: id }),
      ]),
    ),
  },
} satisfies Record<FieldType, z.ZodRawShape>;

export const COMMON_FIELD_KEYS = ['id', 'type', ...Object.keys(common).filter((k) => k !== 'id')];
export const TYPE_PROPERTY_KEYS = Object.fromEntries(
  FIELD_TYPES.map((type) => [type, Object.keys(TYPE_PROPERTIES[type]).filter((k) => k !== 'required')]),
) as Record<FieldType, string[]>;

const fieldOf = <T extends FieldType>(type: T) => {
  const { id: fieldId, ...rest } = common;
  return z.strictObject({ id: fieldId, type: z.literal(type), ...rest, ...TYPE_PROPERTIES[type] });
};

export const fieldSchema = z.discriminatedUnion('type', [
  fieldOf('text'),
  fieldOf('long_text'),
  fieldOf('email'),
  fieldOf('number'),
  fieldOf('phone'),
  fieldOf('url'),
  fieldOf('date'),
  fieldOf('time'),
  fieldOf('single_choice'),
  fieldOf('multiple_choice'),
  fieldOf('dropdown'),
  fieldOf('checkbox'),
  fieldOf('rating'),
  fieldOf('opinion_scale'),
  fieldOf('nps'),
  fieldOf('ranking'),
  fieldOf('file_upload'),
  fieldOf('signature'),
  fieldOf('statement'),
  fieldOf('hidden'),
  fieldOf('payment'),
]);
export type FieldInputOutput = z.output<typeof fieldSchema>;

export const stepSchema = z.strictObject({
  id: id.optional(),
  title: label.default(''),
  description: description.optional(),
  fields: z.array(fieldSchema).default(() => []),
});
