/**
 * The draft schema: the builder-compatible document a form is edited as and published from.
 * Everything refers to everything else by stable id, never by label or position.
 * These types are the normalized shape (what is stored and returned); the validator in
 * `validate.ts` accepts a few looser input spellings and produces this shape.
 */

export const DRAFT_SCHEMA_VERSION = 1;

/** The id a quiz ending uses to point at the default thank-you screen. */
export const DEFAULT_THANK_YOU_SCREEN_ID = '__service_default_thank_you__';

export interface DraftSchema {
  version: 1;
  steps: Step[];
  settings: FormSettings;
  theme: Theme;
  workflow: Workflow;
  /** Present only when the form has quiz configuration. */
  quiz?: Quiz;
}

export interface Step {
  id: string;
  title: string;
  /** Optional text shown under the step title. */
  description?: string;
  fields: Field[];
}

// ---------------------------------------------------------------- fields

export const FIELD_TYPES = [
  'text',
  'long_text',
  'email',
  'number',
  'phone',
  'url',
  'date',
  'time',
  'single_choice',
  'multiple_choice',
  'dropdown',
  'checkbox',
  'rating',
  'opinion_scale',
  'nps',
  'ranking',
  'file_upload',
  'signature',
  'statement',
  'hidden',
  'payment',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose answer is one or more of `options[].value`. */
export const CHOICE_FIELD_TYPES = ['single_choice', 'multiple_choice', 'dropdown', 'ranking'] as const;
/** Types that collect no answer. */
export const DISPLAY_ONLY_FIELD_TYPES = ['statement'] as const;
/** Types whose answer is a number (usable in workflow math and numeric conditions). */
export const NUMERIC_FIELD_TYPES = ['number', 'rating', 'opinion_scale', 'nps'] as const;

export interface ChoiceOption {
  id: string;
  label: string;
  /** The stored answer value; defaults to the label on input. Unique within the field. */
  value: string;
  /** Optional picture for image choices. */
  imageUrl?: string;
}

interface FieldBase {
  id: string;
  type: FieldType;
  label: string;
  description?: string;
  required: boolean;
  placeholder?: string;
}

export interface TextField extends FieldBase {
  type: 'text' | 'long_text';
  minLength?: number;
  maxLength?: number;
}
export interface EmailField extends FieldBase {
  type: 'email';
}
export interface UrlField extends FieldBase {
  type: 'url';
}
export interface PhoneField extends FieldBase {
  type: 'phone';
  /** ISO 3166-1 alpha-2 country assumed for numbers written without a `+` prefix. */
  defaultCountry?: string;
}
export interface NumberField extends FieldBase {
  type: 'number';
  min?: number;
  max?: number;
  /** When false, only integers are accepted. Default true. */
  allowDecimals?: boolean;
}
export interface DateField extends FieldBase {
  type: 'date';
  /** YYYY-MM-DD bounds, inclusive. */
  minDate?: string;
  maxDate?: string;
}
export interface TimeField extends FieldBase {
  type: 'time';
}
export interface SingleChoiceField extends FieldBase {
  type: 'single_choice' | 'dropdown';
  options: ChoiceOption[];
  /** single_choice only: lets the respondent type a value that is not an option. */
  allowOther?: boolean;
}
export interface MultipleChoiceField extends FieldBase {
  type: 'multiple_choice';
  options: ChoiceOption[];
  minSelections?: number;
  maxSelections?: number;
}
export interface RankingField extends FieldBase {
  type: 'ranking';
  options: ChoiceOption[];
}
/** A single yes/no box (consent, terms). `required` means it must be checked. */
export interface CheckboxField extends FieldBase {
  type: 'checkbox';
}
export interface RatingField extends FieldBase {
  type: 'rating';
  /** Number of steps, 3..10, default 5. Answers are 1..max. */
  max: number;
  icon: 'star' | 'heart' | 'thumb';
}
export interface OpinionScaleField extends FieldBase {
  type: 'opinion_scale';
  /** 0 or 1. */
  min: number;
  /** 5..10. */
  max: number;
  minLabel?: string;
  maxLabel?: string;
}
/** Net Promoter Score: always 0..10. */
export interface NpsField extends FieldBase {
  type: 'nps';
  minLabel?: string;
  maxLabel?: string;
}
export interface FileUploadField extends FieldBase {
  type: 'file_upload';
  /** 1..10, default 1. */
  maxFiles: number;
  /** Per file, 1..25, default 10. */
  maxSizeMb: number;
  /** Accepted MIME types or extensions (`image/*`, `.pdf`); empty means any. */
  accept: string[];
}
export interface SignatureField extends FieldBase {
  type: 'signature';
}
/** Display-only text block. */
export interface StatementField extends FieldBase {
  type: 'statement';
  required: false;
}
/** Not rendered; its value comes from the query string (`?<name>=`) or `hiddenValues`. */
export interface HiddenField extends FieldBase {
  type: 'hidden';
  required: false;
  /** Query-string and `hiddenValues` key; letters, digits, `_` and `-`. Unique within the form. */
  name: string;
  dataType: 'text' | 'number';
  defaultValue?: string;
}
export const PAYMENT_PROVIDERS = ['stripe', 'razorpay'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
export const DEFAULT_PAYMENT_PROVIDER: PaymentProviderName = 'stripe';
export type PaymentAmount = { type: 'fixed'; value: number } | { type: 'field'; fieldId: string } | { type: 'variable'; variableId: string };
export interface PaymentField extends FieldBase {
  type: 'payment';
  /** ISO 4217, upper case. */
  currency: string;
  /** Which connected provider collects it; stripe when not set. */
  provider?: PaymentProviderName;
  /** Fixed amounts are in minor units (cents); field and variable amounts are in major units. */
  amount: PaymentAmount;
}

export type Field =
  | TextField
  | EmailField
  | UrlField
  | PhoneField
  | NumberField
  | DateField
  | TimeField
  | SingleChoiceField
  | MultipleChoiceField
  | RankingField
  | CheckboxField
  | RatingField
  | OpinionScaleField
  | NpsField
  | FileUploadField
  | SignatureField
  | StatementField
  | HiddenField
  | PaymentField;

// ---------------------------------------------------------------- settings

export interface FormSettings {
  /** Becomes the stored form title when given. */
  name?: string;
  /** Lower-case letters, digits and single hyphens; unique per workspace. */
  slug?: string;
  submitButtonLabel?: string;
  hidden: { variables: WorkflowVariable[] };
  submissions: {
    thankYou: ThankYouScreen;
    thankYouScreens: ThankYouScreen[];
  };
}

export interface WorkflowVariable {
  id: string;
  /** Display name, unique within the form. */
  name: string;
  type: 'number' | 'text';
  /** Starting value: a number for number variables, a string for text ones. */
  initialValue?: number | string;
}

export interface ImageAttribution {
  provider: 'unsplash';
  photographerName: string;
  photographerUrl: string;
  sourceName: string;
  sourceUrl: string;
  photoUrl: string;
}

export interface SocialShareLinks {
  facebook?: string;
  x?: string;
  linkedin?: string;
}

/** The default thank-you screen (`settings.submissions.thankYou`) or an extra ending screen. */
export interface ThankYouScreen {
  /** Extra screens need an id; the default screen's id is DEFAULT_THANK_YOU_SCREEN_ID. */
  id: string;
  title: string;
  description?: string;
  /** When set, the respondent is sent here after submitting (returned as `redirect_to`). */
  redirectUrl?: string;
  showSocialShareIcons?: boolean;
  socialShareLinks?: SocialShareLinks;
  showButton?: boolean;
  buttonLabel?: string;
  buttonUrl?: string;
  buttonOpenInNewTab?: boolean;
  mediaUrl?: string;
  mediaType?: 'image' | 'video';
  mediaAlt?: string;
  mediaAttribution?: ImageAttribution;
  logoUrl?: string;
  logoAttribution?: ImageAttribution;
  titleSize?: 'small' | 'medium' | 'large';
  textAlign?: 'left' | 'center' | 'right';
  backgroundColor?: string;
  backgroundImageUrl?: string;
  backgroundImageAttribution?: ImageAttribution;
  /** Percent, 0..200 (100 = unchanged). */
  backgroundImageBrightness?: number;
  headingColor?: string;
  descriptionColor?: string;
  buttonBackgroundColor?: string;
  buttonTextColor?: string;
  /** Pixels, 0..48. */
  buttonRadius?: number;
}

// ---------------------------------------------------------------- theme

export interface CustomFont {
  family: string;
  fileName: string;
  assetId: string;
  format: 'woff2' | 'woff' | 'truetype' | 'opentype';
  url: string;
}

export interface Theme {
  /** `#rgb` or `#rrggbb`. */
  primaryColor: string;
  background: { type: 'color' | 'image' | 'gradient'; value: string };
  /** A font family name, or `custom` together with `customFont`. */
  fontFamily: string;
  customFont?: CustomFont | null;
  textColor?: string;
  buttonTextColor?: string;
  /** Pixels, 0..32. */
  borderRadius?: number;
}

// ---------------------------------------------------------------- workflow

/** Where a step leads. Input also accepts `'end'`, a step id string and `'thank_you:<screen_id>'`. */
export type Target = { type: 'end' } | { type: 'step'; stepId: string } | { type: 'thank_you'; screenId: string };

export const CONDITION_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'greater_than',
  'greater_or_equal',
  'less_than',
  'less_or_equal',
  'is_empty',
  'is_not_empty',
  'includes_any',
  'includes_all',
  'includes_none',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

/** What a condition reads or an action computes with. */
export type Operand =
  | { type: 'field'; fieldId: string }
  | { type: 'variable'; variableId: string }
  /** The running quiz score (score quizzes). */
  | { type: 'score' }
  | { type: 'number'; value: number }
  | { type: 'text'; value: string };

export interface Condition {
  id: string;
  /** Left-hand side: a field, a variable or the score. */
  subject: Extract<Operand, { type: 'field' | 'variable' | 'score' }>;
  operator: ConditionOperator;
  /** Right-hand side; omitted for is_empty / is_not_empty; a string array for the includes_* operators. */
  value?: string | number | boolean | string[];
}

export const NUMBER_OPERATIONS = ['set', 'add', 'subtract', 'multiply', 'divide', 'clear'] as const;
export const TEXT_OPERATIONS = ['set', 'append', 'prepend', 'clear'] as const;

export interface VariableAction {
  id: string;
  variableId: string;
  operation: (typeof NUMBER_OPERATIONS)[number] | (typeof TEXT_OPERATIONS)[number];
  /** Omitted for `clear`. Number variables only take numeric operands (number fields, number hidden fields, number variables, score, fixed numbers). */
  operand?: Operand;
}

/**
 * A rule is evaluated when the respondent leaves `stepId`. Rules of a step run in order: every rule whose
 * conditions hold applies its actions; the first holding rule with a `target` decides where to go.
 * A rule with no conditions always holds.
 */
export interface WorkflowRule {
  id: string;
  stepId: string;
  match: 'all' | 'any';
  conditions: Condition[];
  actions: VariableAction[];
  target?: Target;
}

export interface Workflow {
  version: 1;
  enabled: boolean;
  rules: WorkflowRule[];
  /** Per step: where to go when no rule with a target holds. Without one, the next step (or the end). */
  fallbacks: Record<string, Target>;
}

/** The `logic` object the step-logic endpoint returns. */
export interface StepLogic {
  stepId: string;
  rules: WorkflowRule[];
  fallbackTarget: Target | null;
}

// ---------------------------------------------------------------- quiz

export interface QuizEnding {
  id: string;
  /** A `settings.submissions.thankYouScreens[].id`, or DEFAULT_THANK_YOU_SCREEN_ID. */
  screenId: string;
  title?: string;
  /** Score quizzes: inclusive score range that leads to this ending. */
  minScore?: number;
  maxScore?: number;
}

export interface QuizMapping {
  id: string;
  fieldId: string;
  /** One of the field's `options[].value`. */
  optionValue: string;
  /** Match quizzes: the ending this answer counts toward. */
  endingId?: string;
  /** Match quizzes: weight toward `endingId` (default 1). Score quizzes: points added to the score. */
  points: number;
}

/**
 * `type: 'match'` picks the ending with the most points from mapped answers (ties go to the earlier ending);
 * `mode` names the flavour (`match` = recommendation or product match, `personality`).
 * `type: 'score'` sums mapped points and picks the first ending whose range holds the total.
 */
export interface Quiz {
  enabled: boolean;
  type: 'match' | 'score';
  mode?: 'match' | 'personality';
  endings: QuizEnding[];
  mappings: QuizMapping[];
}

// ---------------------------------------------------------------- answers

/** A file the respondent uploaded before submitting (see the public uploads endpoint). */
export interface UploadedFile {
  id: string;
  fileName: string;
  mimeType: string;
  size: number;
  url: string;
}

/**
 * A normalized answer. By type: text, long_text, email (lower-cased), url, phone (E.164), date (YYYY-MM-DD),
 * time (HH:MM), single_choice/dropdown (an option value, or free text when allowOther), signature (PNG data URL)
 * and text hidden fields → string; number, rating, opinion_scale, nps and number hidden fields → number;
 * checkbox → boolean; multiple_choice and ranking (every option, in order) → string[]; file_upload → UploadedFile[].
 * Statement and payment fields take no answer (payment amounts are computed on the server).
 */
export type AnswerValue = string | number | boolean | string[] | UploadedFile[];
