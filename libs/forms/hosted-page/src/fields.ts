import type {
  ChoiceOption,
  DraftSchema,
  Field,
  FileUploadField,
  MultipleChoiceField,
  NpsField,
  OpinionScaleField,
  PaymentField,
  RankingField,
  RatingField,
  SingleChoiceField,
} from '@forms/draft-schema';
import { currencyMinorDigits } from '@forms/payments';
import { createRunState, paymentAmount } from '@forms/runtime';
import { escapeHtml, safeUrl } from './escape';
import { tag, voidTag, type AttributeValue } from './html';
import { fieldErrorId, fieldHintId, fieldInputId, fieldPartId } from './ids';
import { formatMoney } from './money';

/** The icon and its name, singular and plural. */
const RATING_ICONS = { star: ['★', 'star', 'stars'], heart: ['♥', 'heart', 'hearts'], thumb: ['👍', 'thumb up', 'thumbs up'] } as const;

/** Native input types for the single-line fields without their own constraints. */
const INPUT_TYPES: Partial<Record<Field['type'], { type: string; autocomplete?: string; inputmode?: string }>> = {
  email: { type: 'email', autocomplete: 'email' },
  phone: { type: 'tel', autocomplete: 'tel' },
  url: { type: 'url', autocomplete: 'url', inputmode: 'url' },
  time: { type: 'time' },
};

/** One field, accessibly labelled, with its description and error slot; hidden fields render nothing. */
export function renderField(field: Field, schema: DraftSchema): string {
  switch (field.type) {
    case 'hidden':
      return '';
    case 'statement':
      return container(field, 'div', `<p class="statement-title">${escapeHtml(field.label)}</p>${hint(field)}`);
    case 'payment':
      return renderPayment(field, schema);
    case 'single_choice':
      return group(field, choiceCards(field, 'radio', otherOption(field)), { role: 'radiogroup' });
    case 'multiple_choice':
      return group(field, choiceCards(field, 'checkbox'));
    case 'rating':
      return group(field, rating(field), { role: 'radiogroup' });
    case 'opinion_scale':
    case 'nps': {
      const labels = scaleLabels(field);
      const values = field.type === 'nps' ? range(0, 10) : range(field.min, field.max);
      return group(field, scale(field, values) + labels, { role: 'radiogroup' }, labels ? [scaleLabelsId(field)] : []);
    }
    case 'ranking':
      return group(field, ranking(field), {}, [rankingHintId(field)]);
    case 'signature':
      return group(field, signature(field));
    case 'file_upload':
      return container(field, 'div', `${label(field)}${hint(field)}${fileUpload(field)}${errorSlot(field)}`);
    case 'checkbox':
      return container(
        field,
        'div',
        `<div class="choice">${voidTag('input', { ...inputAttributes(field), type: 'checkbox', value: 'true' })}${label(field)}</div>${hint(field)}${errorSlot(field)}`,
      );
    default:
      return container(field, 'div', `${label(field)}${hint(field)}${control(field)}${errorSlot(field)}`);
  }
}

function control(field: Field): string {
  const base = inputAttributes(field);
  switch (field.type) {
    case 'long_text':
      // No native minlength/maxlength: they count UTF-16 units, the server counts characters (`coerceAnswer`, which the
      // page runs too), so "😀😀😀" fits a maxLength of 3 but could not be typed into maxlength="3".
      return tag('textarea', { ...base, rows: 4, placeholder: field.placeholder });
    case 'number': {
      const step = field.allowDecimals === false ? 1 : 'any';
      return voidTag('input', {
        ...base,
        type: 'number',
        inputmode: field.allowDecimals === false ? 'numeric' : 'decimal',
        min: field.min,
        max: field.max,
        step,
        placeholder: field.placeholder,
      });
    }
    case 'dropdown':
      return tag(
        'select',
        base,
        tag('option', { value: '' }, escapeHtml(field.placeholder || 'Select an option')) +
          field.options.map((o) => tag('option', { value: o.value }, escapeHtml(o.label))).join(''),
      );
    case 'text':
      return voidTag('input', { ...base, type: 'text', placeholder: field.placeholder });
    case 'date':
      return voidTag('input', { ...base, type: 'date', min: field.minDate, max: field.maxDate });
    default: {
      const input = INPUT_TYPES[field.type] ?? { type: 'text' };
      return voidTag('input', { ...base, ...input, placeholder: field.placeholder });
    }
  }
}

/** The attributes every single control shares: id, name, required state, description and error links. */
function inputAttributes(field: Field, extraDescriptions: string[] = []): Record<string, AttributeValue> {
  return {
    id: fieldInputId(field.id),
    name: field.id,
    'aria-required': field.required ? 'true' : undefined,
    'aria-describedby': describedBy(field, extraDescriptions),
  };
}

function describedBy(field: Field, extra: string[] = []): string {
  return [...(field.description ? [fieldHintId(field.id)] : []), ...extra, fieldErrorId(field.id)].join(' ');
}

function container(field: Field, name: 'div' | 'fieldset', content: string, attributes: Record<string, AttributeValue> = {}): string {
  return tag(name, { class: `field field-${field.type}`, 'data-field': field.id, ...attributes }, content);
}

/** A fieldset whose legend names the group; radio groups carry aria-required, other groups say it in the legend. */
function group(field: Field, content: string, attributes: Record<string, AttributeValue> = {}, extraDescriptions: string[] = []): string {
  const isRadioGroup = attributes.role === 'radiogroup';
  const requiredText = field.required && !isRadioGroup ? '<span class="sr-only"> (required)</span>' : '';
  const legend = `<legend>${escapeHtml(field.label)}${requiredMarker(field)}${requiredText}</legend>`;
  return container(field, 'fieldset', `${legend}${hint(field)}${content}${errorSlot(field)}`, {
    ...attributes,
    'aria-required': isRadioGroup && field.required ? 'true' : undefined,
    'aria-describedby': describedBy(field, extraDescriptions),
  });
}

function label(field: Field): string {
  return tag(
    'label',
    { class: field.type === 'checkbox' ? undefined : 'field-label', for: fieldInputId(field.id) },
    escapeHtml(field.label) + requiredMarker(field),
  );
}

function requiredMarker(field: Field): string {
  return field.required ? '<span class="required" aria-hidden="true"> *</span>' : '';
}

function hint(field: Field): string {
  return field.description ? tag('p', { class: 'hint', id: fieldHintId(field.id) }, escapeHtml(field.description)) : '';
}

function errorSlot(field: Field): string {
  return tag('p', { class: 'field-error', id: fieldErrorId(field.id), role: 'alert' });
}

/** Options as cards; with pictures they sit in a grid of image cards. */
function choiceCards(field: SingleChoiceField | MultipleChoiceField, type: 'radio' | 'checkbox', extra = ''): string {
  const options = field.options.map((option, index) => choice(field, type, option.value, index, optionContent(option))).join('');
  const withImages = field.options.some((option) => safeUrl(option.imageUrl));
  return tag('div', { class: withImages ? 'choices choices-images' : 'choices' }, options + extra);
}

function optionContent(option: ChoiceOption): string {
  const image = safeUrl(option.imageUrl);
  return `${image ? voidTag('img', { src: image, alt: '', loading: 'lazy' }) : ''}<span>${escapeHtml(option.label)}</span>`;
}

function choice(field: Field, type: 'radio' | 'checkbox', value: string, index: number | 'other', content: string): string {
  const id = fieldPartId(field.id, index);
  const input = voidTag('input', { type, id, name: fieldInputId(field.id), value, 'data-other': index === 'other' });
  return `<label class="choice" for="${escapeHtml(id)}">${input}${content}</label>`;
}

function otherOption(field: SingleChoiceField): string {
  if (field.type !== 'single_choice' || !field.allowOther) return '';
  const textId = fieldPartId(field.id, 'other-text');
  return (
    choice(field, 'radio', 'other', 'other', '<span>Other</span>') +
    `<label class="sr-only" for="${escapeHtml(textId)}">Other answer</label>` +
    voidTag('input', { type: 'text', id: textId, class: 'other-text', placeholder: 'Type your answer' })
  );
}

const fileLimitsId = (field: Field) => fieldPartId(field.id, 'limits');

/** A drop zone: the native file input stretched invisibly over it, so clicking, dropping and the keyboard all work. */
function fileUpload(field: FileUploadField): string {
  const files = field.maxFiles === 1 ? 'file' : 'files';
  const limits = `Up to ${field.maxFiles} ${files}, ${field.maxSizeMb} MB each.`;
  const zone = tag(
    'div',
    { class: 'dropzone' },
    voidTag('input', {
      ...inputAttributes(field, [fileLimitsId(field)]),
      type: 'file',
      multiple: field.maxFiles > 1,
      accept: field.accept.join(',') || undefined,
    }) +
      `<span class="dropzone-icon" aria-hidden="true">⇪</span>` +
      `<span class="dropzone-text" aria-hidden="true"><strong>Choose ${field.maxFiles === 1 ? 'a file' : files}</strong> or drag ${field.maxFiles === 1 ? 'it' : 'them'} here</span>` +
      tag('span', { class: 'hint', id: fileLimitsId(field) }, limits),
  );
  return zone + '<ul class="upload-list" aria-live="polite"></ul>';
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(to - from + 1, 0) }, (_, index) => from + index);
}

/**
 * A segmented row of numbers (visually hidden radios, so arrow keys still work). Long scales break into two even
 * rows on a phone (`--narrow`, see styles.ts) instead of wrapping one leftover segment.
 */
function scale(field: Field, values: number[]): string {
  const options = values.map((value) => choice(field, 'radio', String(value), value, `<span>${value}</span>`));
  const narrow = values.length > 7 ? Math.ceil(values.length / 2) : values.length;
  return tag('div', { class: 'scale', style: `--count:${values.length};--narrow:${narrow}` }, options.join(''));
}

/** Stars (or hearts, thumbs) that fill up to the chosen one; each radio is named "N stars" for assistive technology. */
function rating(field: RatingField): string {
  const [icon, one, many] = RATING_ICONS[field.icon];
  const options = range(1, field.max).map((value) =>
    choice(
      field,
      'radio',
      String(value),
      value,
      `<span class="rating-icon" aria-hidden="true">${icon}</span><span class="sr-only">${value} ${value === 1 ? one : many}</span>`,
    ),
  );
  return tag('div', { class: `rating rating-${field.icon}` }, options.join(''));
}

const scaleLabelsId = (field: Field) => fieldPartId(field.id, 'scale');

/** The ends of the scale, under its first and last segments; an NPS question says "Not likely" / "Very likely" by default. */
function scaleLabels(field: OpinionScaleField | NpsField): string {
  const [minLabel, maxLabel] = field.type === 'nps' ? [field.minLabel || 'Not likely', field.maxLabel || 'Very likely'] : [field.minLabel, field.maxLabel];
  if (!minLabel && !maxLabel) return '';
  const [min, max] = field.type === 'nps' ? [0, 10] : [field.min, field.max];
  const side = (value: number, text?: string) => (text ? `<span><span class="sr-only">${value}: </span>${escapeHtml(text)}</span>` : '<span></span>');
  return tag('p', { class: 'scale-labels', id: scaleLabelsId(field) }, side(min, minLabel) + side(max, maxLabel));
}

const rankingHintId = (field: Field) => fieldPartId(field.id, 'ranking-hint');

/** A list in answer order; each item moves with its own up/down buttons (focusable, so fully keyboard operable). */
function ranking(field: RankingField): string {
  const items = field.options.map((option, index) => {
    const name = escapeHtml(option.label);
    return tag(
      'li',
      { 'data-value': option.value },
      `<span class="rank-label">${name}</span>` +
        tag(
          'button',
          { type: 'button', 'data-move': 'up', id: index === 0 ? fieldInputId(field.id) : undefined, 'aria-label': `Move ${option.label} up` },
          '↑',
        ) +
        tag('button', { type: 'button', 'data-move': 'down', 'aria-label': `Move ${option.label} down` }, '↓'),
    );
  });
  return `<p class="hint" id="${escapeHtml(rankingHintId(field))}">Put the options in order, most preferred first.</p><ol class="ranking">${items.join('')}</ol>`;
}

/** A drawing pad for pointers plus a typed-name alternative, which the script turns into the same PNG answer. */
function signature(field: Field): string {
  const inputId = fieldInputId(field.id);
  return (
    tag('canvas', { class: 'signature-pad', width: 600, height: 200, role: 'img', 'aria-label': 'Signature pad: draw your signature' }) +
    tag('label', { class: 'hint', for: inputId }, 'Or type your full name to sign') +
    voidTag('input', { ...inputAttributes(field), type: 'text', autocomplete: 'name', class: 'signature-name' }) +
    tag('button', { type: 'button', class: 'signature-clear' }, 'Clear signature')
  );
}

/** The amount (kept current by the client) and the checkout button; the exponent travels with it, computed here once. */
function renderPayment(field: PaymentField, schema: DraftSchema): string {
  const digits = currencyMinorDigits(field.currency) ?? 2;
  const amount = paymentAmount(field, createRunState(schema, {}), {}, digits);
  return container(
    field,
    'div',
    `<p class="field-label">${escapeHtml(field.label)}</p>${hint(field)}` +
      tag(
        'p',
        { class: 'payment-amount', 'data-currency': field.currency, 'data-minor-digits': String(digits), 'aria-live': 'polite' },
        escapeHtml(formatMoney(amount, field.currency, digits)),
      ) +
      tag('div', { class: 'payment-checkout', 'data-checkout': field.id }, '') +
      tag('button', { type: 'button', class: 'payment-pay', 'data-pay': field.id }, 'Pay now') +
      tag('p', { class: 'payment-status', role: 'status', 'aria-live': 'polite' }, field.required ? 'Payment is required to submit.' : '') +
      errorSlot(field),
  );
}
