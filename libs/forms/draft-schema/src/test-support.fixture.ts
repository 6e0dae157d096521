/** Helpers for this library's specs. */
import type { IdSource } from './issues';
import type { DraftSchema } from './model';
import { parseDraftSchema } from './validate';

/** Mints `<prefix>_<tag>1`, `<prefix>_<tag>2`, … per prefix, so specs can predict ids. */
export function counterIds(tag = ''): IdSource {
  const counts = new Map<string, number>();
  return (prefix) => {
    const next = (counts.get(prefix) ?? 0) + 1;
    counts.set(prefix, next);
    return `${prefix}_${tag}${next}`;
  };
}

/** Parses a draft the spec expects to be valid, failing loudly with the issues otherwise. */
export function draft(input: unknown, ids: IdSource = counterIds()): DraftSchema {
  const result = parseDraftSchema(input, ids);
  if (!result.ok) throw new Error(`expected a valid draft, got ${JSON.stringify(result.issues, null, 2)}`);
  return result.value;
}

/** Freezes a value deeply, so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * A realistic form: lead qualification with branching, workflow variables, a match quiz and a payment.
 * Written in the loose input spellings (missing ids, string targets, option values from labels).
 */
export const realisticInput = {
  steps: [
    {
      id: 'stp_about',
      title: 'About you',
      fields: [
        { id: 'fld_name', type: 'text', label: 'Your name', required: true, maxLength: 120 },
        { id: 'fld_email', type: 'email', label: 'Work email', required: true, placeholder: 'you@company.com' },
        { id: 'fld_phone', type: 'phone', label: 'Phone', defaultCountry: 'DE' },
        { id: 'fld_size', type: 'single_choice', label: 'Company size', options: [{ label: '1-10' }, { label: '11-200' }, { label: '200+', value: 'large' }] },
        { id: 'fld_src', type: 'hidden', name: 'utm_source' },
      ],
    },
    {
      id: 'stp_needs',
      title: 'Your needs',
      description: 'Tell us what you are looking for.',
      fields: [
        {
          id: 'fld_goals',
          type: 'multiple_choice',
          label: 'Goals',
          options: [{ label: 'Leads' }, { label: 'Surveys' }, { label: 'Quizzes' }],
          maxSelections: 2,
        },
        { id: 'fld_seats', type: 'number', label: 'Seats', min: 1, max: 500, allowDecimals: false },
        { id: 'fld_score', type: 'rating', label: 'How happy are you with your current tool?' },
        { id: 'fld_start', type: 'date', label: 'Start date', minDate: '2024-01-01' },
        { id: 'fld_rank', type: 'ranking', label: 'Rank these', options: [{ label: 'Price' }, { label: 'Speed' }, { label: 'Support' }] },
      ],
    },
    {
      id: 'stp_enterprise',
      title: 'Enterprise',
      fields: [
        { type: 'statement', label: 'Our sales team will reach out.' },
        { id: 'fld_notes', type: 'long_text', label: 'Anything else?' },
        { id: 'fld_nps', type: 'nps', label: 'How likely are you to recommend us?' },
      ],
    },
    {
      id: 'stp_checkout',
      title: 'Checkout',
      fields: [
        { id: 'fld_terms', type: 'checkbox', label: 'I accept the terms', required: true },
        { id: 'fld_pay', type: 'payment', label: 'Deposit', currency: 'EUR', amount: { type: 'variable', variableId: 'var_total' } },
        { id: 'fld_sig', type: 'signature', label: 'Sign here' },
        { id: 'fld_files', type: 'file_upload', label: 'Attachments', maxFiles: 3, accept: ['.pdf', 'image/*'] },
      ],
    },
  ],
  settings: {
    name: 'Lead qualification',
    slug: 'lead-qualification',
    submitButtonLabel: 'Send',
    hidden: {
      variables: [
        { id: 'var_total', name: 'Total', type: 'number', initialValue: 0 },
        { id: 'var_tags', name: 'Tags', type: 'text' },
      ],
    },
    submissions: {
      thankYou: { title: 'Thanks!', showButton: true, buttonLabel: 'Visit us', buttonUrl: 'https://example.com' },
      thankYouScreens: [
        { id: 'tys_leads', title: 'Leads it is', textAlign: 'center', headingColor: '#111' },
        { id: 'tys_surveys', title: 'Surveys it is', redirectUrl: 'https://example.com/surveys' },
      ],
    },
  },
  theme: { primaryColor: '#0ea5e9', background: { type: 'gradient', value: 'linear-gradient(#fff, #eef)' }, fontFamily: 'Roboto', borderRadius: 8 },
  workflow: {
    rules: [
      {
        stepId: 'stp_about',
        match: 'any',
        conditions: [
          { subject: { type: 'field', fieldId: 'fld_size' }, operator: 'equals', value: 'large' },
          { subject: { type: 'field', fieldId: 'fld_email' }, operator: 'ends_with', value: '@bigcorp.com' },
        ],
        actions: [{ variableId: 'var_tags', operation: 'append', operand: { type: 'text', value: 'enterprise ' } }],
        target: 'stp_enterprise',
      },
      {
        stepId: 'stp_needs',
        conditions: [{ subject: { type: 'field', fieldId: 'fld_seats' }, operator: 'greater_than', value: 100 }],
        actions: [
          { variableId: 'var_total', operation: 'set', operand: { type: 'field', fieldId: 'fld_seats' } },
          { variableId: 'var_total', operation: 'multiply', operand: { type: 'number', value: 12 } },
        ],
        target: { type: 'step', stepId: 'stp_enterprise' },
      },
      {
        stepId: 'stp_needs',
        conditions: [{ subject: { type: 'field', fieldId: 'fld_goals' }, operator: 'includes_any', value: ['Quizzes'] }],
        target: 'thank_you:tys_surveys',
      },
    ],
    fallbacks: { stp_needs: 'stp_checkout', stp_enterprise: { type: 'step', stepId: 'stp_checkout' } },
  },
  quiz: {
    type: 'match',
    mode: 'match',
    endings: [
      { id: 'end_leads', screenId: 'tys_leads' },
      { id: 'end_surveys', screenId: 'tys_surveys' },
    ],
    mappings: [
      { fieldId: 'fld_goals', optionValue: 'Leads', endingId: 'end_leads', points: 2 },
      { fieldId: 'fld_goals', optionValue: 'Surveys', endingId: 'end_surveys' },
    ],
  },
};
