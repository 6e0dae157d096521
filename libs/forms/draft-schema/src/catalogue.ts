import { DEFAULT_MAX_LENGTH, FIELD_DEFAULTS } from './defaults';
import type { FieldType } from './model';

export interface PropertyDoc {
  description: string;
  /** The value stored when the property is omitted; absent when an omitted property stays absent. */
  default?: unknown;
}

export interface FieldTypeDoc {
  description: string;
  /** The type's own properties, besides the common ones. */
  properties: Record<string, PropertyDoc>;
}

/** Properties every field has. */
export const COMMON_FIELD_PROPERTIES: Record<string, PropertyDoc> = {
  id: { description: 'Stable id; minted (fld_…) when omitted.' },
  type: { description: 'One of the field types.' },
  label: { description: 'The question; up to 500 characters. Needed to publish (except hidden and statement fields).', default: '' },
  description: { description: 'Help text under the label; up to 5000 characters.' },
  required: { description: 'Whether an answer is needed. Always false for statement and hidden fields.', default: false },
  placeholder: { description: 'Hint shown in an empty input.' },
};

const options: PropertyDoc = { description: 'Choices: {id?, label, value? (defaults to the label), imageUrl?}; up to 100, values unique.', default: [] };
const maxLength = (type: 'text' | 'long_text'): PropertyDoc => ({
  description: `Most characters accepted (1–10000); without it, ${DEFAULT_MAX_LENGTH[type]}.`,
});
const scaleLabels = {
  minLabel: { description: 'Caption under the lowest value.' },
  maxLabel: { description: 'Caption under the highest value.' },
};

/** Every field type with its own properties and their defaults (for docs and agent tool descriptions). */
export const FIELD_CATALOGUE: Readonly<Record<FieldType, FieldTypeDoc>> = {
  text: { description: 'One line of text.', properties: { minLength: { description: 'Fewest characters accepted.' }, maxLength: maxLength('text') } },
  long_text: {
    description: 'Several lines of text.',
    properties: { minLength: { description: 'Fewest characters accepted.' }, maxLength: maxLength('long_text') },
  },
  email: { description: 'An email address (stored lower-case).', properties: {} },
  number: {
    description: 'A number.',
    properties: {
      min: { description: 'Smallest value accepted.' },
      max: { description: 'Largest value accepted.' },
      allowDecimals: { description: 'When false, only whole numbers; treated as true when omitted.' },
    },
  },
  phone: {
    description: 'A phone number, stored in E.164 (+4930123456).',
    properties: { defaultCountry: { description: 'ISO country (US, GB, DE, …) assumed for numbers typed without +.' } },
  },
  url: { description: 'A web address (http or https).', properties: {} },
  date: {
    description: 'A calendar day (YYYY-MM-DD).',
    properties: { minDate: { description: 'Earliest day, YYYY-MM-DD.' }, maxDate: { description: 'Latest day, YYYY-MM-DD.' } },
  },
  time: { description: 'A time of day (HH:MM).', properties: {} },
  single_choice: {
    description: 'Pick one option (radio buttons).',
    properties: { options, allowOther: { description: 'Lets the respondent type an answer that is not an option.' } },
  },
  multiple_choice: {
    description: 'Pick several options (checkboxes).',
    properties: { options, minSelections: { description: 'Fewest options to pick.' }, maxSelections: { description: 'Most options to pick.' } },
  },
  dropdown: { description: 'Pick one option from a list.', properties: { options } },
  checkbox: { description: 'One yes/no box (consent, terms); required means it must be checked.', properties: {} },
  rating: {
    description: 'A 1..max rating.',
    properties: {
      max: { description: 'Number of steps, 3–10.', default: FIELD_DEFAULTS.rating.max },
      icon: { description: 'star, heart or thumb.', default: FIELD_DEFAULTS.rating.icon },
    },
  },
  opinion_scale: {
    description: 'A numbered agreement scale.',
    properties: {
      min: { description: 'Lowest value, 0 or 1.', default: FIELD_DEFAULTS.opinion_scale.min },
      max: { description: 'Highest value, 5–10.', default: FIELD_DEFAULTS.opinion_scale.max },
      ...scaleLabels,
    },
  },
  nps: { description: 'Net Promoter Score, 0–10.', properties: { ...scaleLabels } },
  ranking: { description: 'Put every option in order (needs at least 2 to publish).', properties: { options } },
  file_upload: {
    description: 'Upload files.',
    properties: {
      maxFiles: { description: 'Files per answer, 1–10.', default: FIELD_DEFAULTS.file_upload.maxFiles },
      maxSizeMb: { description: 'Size per file in MB, 1–25.', default: FIELD_DEFAULTS.file_upload.maxSizeMb },
      accept: { description: 'MIME types (image/*, application/pdf) or extensions (.pdf); empty accepts any.', default: [] },
    },
  },
  signature: { description: 'A drawn signature (PNG).', properties: {} },
  statement: { description: 'Text shown to the respondent; takes no answer.', properties: {} },
  hidden: {
    description: 'Not shown; filled from the URL query (?name=…) or hiddenValues.',
    properties: {
      name: { description: 'Query-string key: 1–64 letters, digits, _ or -; unique in the form.' },
      dataType: { description: 'text or number.', default: FIELD_DEFAULTS.hidden.dataType },
      defaultValue: { description: 'Value when none is passed.' },
    },
  },
  payment: {
    description: 'Collects a payment (Pro and Business plans).',
    properties: {
      currency: { description: 'ISO 4217 code in capitals (USD).' },
      provider: { description: 'Who collects it: stripe (when not set) or razorpay, connected in the workspace’s integrations.' },
      amount: {
        description:
          '{type:"fixed", value (minor units)}, {type:"field", fieldId} (a numeric answer) or {type:"variable", variableId} (a number variable); a bare number is a fixed amount.',
      },
    },
  },
};
