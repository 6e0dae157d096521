import { answerToText, coerceAnswer, isAnswered } from './answers';
import type { Field } from './model';

const base = { id: 'fld_1', label: 'Q', required: false };
const f = <T extends Field['type']>(type: T, extra: Record<string, unknown> = {}) => ({ ...base, type, ...extra }) as Extract<Field, { type: T }>;
const options = (...values: string[]) => values.map((value, i) => ({ id: `opt_${i}`, label: value.toUpperCase(), value }));

const accepted = (field: Field, raw: unknown) => {
  const result = coerceAnswer(field, raw);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(raw)} to be accepted, got ${result.code}`);
  return result.value;
};
const rejected = (field: Field, raw: unknown) => {
  const result = coerceAnswer(field, raw);
  if (result.ok) throw new Error(`expected ${JSON.stringify(raw)} to be rejected`);
  return result.code;
};

const file = { id: 'upl_1', fileName: 'cv.PDF', mimeType: 'application/pdf', size: 2048, url: 'https://files.example/upl_1' };
const png = 'data:image/png;base64,iVBORw0KGgo=';

describe('coerceAnswer', () => {
  it.each<[string, Field]>([
    ['text', f('text')],
    ['number', f('number')],
    ['multiple_choice', f('multiple_choice', { options: options('a') })],
    ['file_upload', f('file_upload', { maxFiles: 1, maxSizeMb: 1, accept: [] })],
    ['checkbox', f('checkbox')],
  ])('treats blank input as not answered (%s)', (_, field) => {
    for (const raw of [undefined, null, '', '   ', []]) expect(coerceAnswer(field, raw)).toEqual({ ok: true, value: undefined });
  });

  it('text and long_text: trimmed, numbers as text, length limits with defaults', () => {
    expect(accepted(f('text'), '  Ada  ')).toBe('Ada');
    expect(accepted(f('text'), 42)).toBe('42');
    expect(rejected(f('text'), { a: 1 })).toBe('invalid_type');
    expect(rejected(f('text', { minLength: 3 }), 'ab')).toBe('too_short');
    expect(accepted(f('text'), 'x'.repeat(500))).toHaveLength(500);
    expect(rejected(f('text'), 'x'.repeat(501))).toBe('too_long');
    expect(rejected(f('text', { maxLength: 5 }), 'abcdef')).toBe('too_long');
    expect(accepted(f('long_text'), 'line 1\nline 2')).toBe('line 1\nline 2');
    expect(accepted(f('long_text'), 'x'.repeat(10_000))).toHaveLength(10_000);
    expect(rejected(f('long_text'), 'x'.repeat(10_001))).toBe('too_long');
  });

  it('email: lower-cased, checked', () => {
    expect(accepted(f('email'), ' Ada@Example.COM ')).toBe('ada@example.com');
    for (const bad of ['ada', 'ada@', 'ada@example', 'a b@example.com', 'ada@@example.com', 'ada..x@example.com']) {
      expect(coerceAnswer(f('email'), bad)).toEqual({ ok: false, code: 'invalid_email', message: 'Enter a valid email address.' });
    }
  });

  it('url: http(s) only, a bare host taken as https', () => {
    expect(accepted(f('url'), 'https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(accepted(f('url'), 'example.com')).toBe('https://example.com');
    for (const bad of ['javascript:alert(1)', 'ftp://example.com', 'not a url', 'https://', 'localhost']) expect(rejected(f('url'), bad)).toBe('invalid_url');
  });

  it('phone: E.164 from international numbers, or national numbers with a default country', () => {
    expect(accepted(f('phone'), '+1 (555) 123-4567')).toBe('+15551234567');
    expect(accepted(f('phone'), '0049 30 123456')).toBe('+4930123456');
    expect(accepted(f('phone', { defaultCountry: 'DE' }), '030 123456')).toBe('+4930123456');
    expect(accepted(f('phone', { defaultCountry: 'US' }), '(555) 123-4567')).toBe('+15551234567');
    expect(accepted(f('phone', { defaultCountry: 'GB' }), '07700 900123')).toBe('+447700900123');
    expect(accepted(f('phone', { defaultCountry: 'IT' }), '06 1234 5678')).toBe('+390612345678');
    expect(rejected(f('phone'), '030 123456')).toBe('invalid_phone');
    expect(rejected(f('phone'), '+12')).toBe('invalid_phone');
    expect(rejected(f('phone'), '+1234567890123456')).toBe('invalid_phone');
    expect(rejected(f('phone', { defaultCountry: 'DE' }), 'call me')).toBe('invalid_phone');
  });

  it('date: a real calendar day within the bounds', () => {
    const field = f('date', { minDate: '2024-01-01', maxDate: '2024-12-31' });
    expect(accepted(field, '2024-02-29')).toBe('2024-02-29');
    expect(rejected(field, '2023-02-29')).toBe('invalid_date');
    expect(rejected(field, '2024-13-01')).toBe('invalid_date');
    expect(rejected(field, '01/02/2024')).toBe('invalid_date');
    expect(rejected(field, '2023-12-31')).toBe('date_too_early');
    expect(rejected(field, '2025-01-01')).toBe('date_too_late');
  });

  it('time: HH:MM from 00:00 to 23:59', () => {
    expect(accepted(f('time'), '09:30')).toBe('09:30');
    expect(accepted(f('time'), '9:05')).toBe('09:05');
    expect(accepted(f('time'), '23:59')).toBe('23:59');
    for (const bad of ['24:00', '12:60', 'noon', '12:5']) expect(rejected(f('time'), bad)).toBe('invalid_time');
  });

  it('number: numbers or numeric strings, bounds, decimals', () => {
    expect(accepted(f('number'), '3.5')).toBe(3.5);
    expect(accepted(f('number'), -2)).toBe(-2);
    expect(accepted(f('number'), '1e3')).toBe(1000);
    expect(rejected(f('number'), 'three')).toBe('invalid_number');
    expect(rejected(f('number'), Infinity)).toBe('invalid_number');
    expect(rejected(f('number'), true)).toBe('invalid_number');
    expect(rejected(f('number', { allowDecimals: false }), 2.5)).toBe('not_integer');
    expect(rejected(f('number', { min: 1 }), 0)).toBe('too_small');
    expect(rejected(f('number', { max: 10 }), '11')).toBe('too_large');
  });

  it('rating, opinion_scale and nps: whole numbers in their range', () => {
    const rating = f('rating', { max: 5, icon: 'star' });
    expect(accepted(rating, 5)).toBe(5);
    expect(accepted(rating, '1')).toBe(1);
    for (const bad of [0, 6, 2.5, 'x']) expect(rejected(rating, bad)).toBe('out_of_range');
    const scale = f('opinion_scale', { min: 0, max: 7 });
    expect(accepted(scale, 0)).toBe(0);
    expect(rejected(scale, 8)).toBe('out_of_range');
    expect(accepted(f('nps'), 10)).toBe(10);
    expect(accepted(f('nps'), 0)).toBe(0);
    expect(rejected(f('nps'), 11)).toBe('out_of_range');
  });

  it('single_choice and dropdown: an option value, or free text with allowOther', () => {
    const choice = f('single_choice', { options: options('a', 'b', '3') });
    expect(accepted(choice, 'a')).toBe('a');
    expect(accepted(choice, 3)).toBe('3');
    expect(rejected(choice, 'A')).toBe('invalid_choice');
    expect(rejected(choice, ['a'])).toBe('invalid_choice');
    const other = f('single_choice', { options: options('a'), allowOther: true });
    expect(accepted(other, '  my own  ')).toBe('my own');
    expect(rejected(other, 'x'.repeat(501))).toBe('too_long');
    expect(rejected(f('dropdown', { options: options('a'), allowOther: true }), 'zzz')).toBe('invalid_choice');
  });

  it('multiple_choice: option values, no repeats, selection bounds, stored in option order', () => {
    const field = f('multiple_choice', { options: options('a', 'b', 'c'), minSelections: 2, maxSelections: 2 });
    expect(accepted(field, ['c', 'a'])).toEqual(['a', 'c']);
    expect(rejected(field, ['a', 'z'])).toBe('invalid_choice');
    expect(rejected(field, ['a', 'a'])).toBe('duplicate_choice');
    expect(rejected(field, 'a')).toBe('too_few_choices');
    expect(rejected(field, ['a', 'b', 'c'])).toBe('too_many_choices');
    expect(accepted(f('multiple_choice', { options: options('a', 'b') }), 'b')).toEqual(['b']);
  });

  it('ranking: every option exactly once, in the given order', () => {
    const field = f('ranking', { options: options('a', 'b', 'c') });
    expect(accepted(field, ['c', 'a', 'b'])).toEqual(['c', 'a', 'b']);
    for (const bad of [
      ['a', 'b'],
      ['a', 'b', 'b'],
      ['a', 'b', 'z'],
      ['a', 'b', 'c', 'a'],
    ])
      expect(rejected(field, bad)).toBe('invalid_ranking');
  });

  it('checkbox: booleans, "true"/"false" and "on"', () => {
    expect(accepted(f('checkbox'), true)).toBe(true);
    expect(accepted(f('checkbox'), 'on')).toBe(true);
    expect(accepted(f('checkbox'), 'true')).toBe(true);
    expect(accepted(f('checkbox'), false)).toBe(false);
    expect(accepted(f('checkbox'), 'false')).toBe(false);
    expect(rejected(f('checkbox'), 'yes')).toBe('invalid_boolean');
    expect(rejected(f('checkbox'), 1)).toBe('invalid_boolean');
  });

  it('signature: a PNG data URL of bounded size', () => {
    expect(accepted(f('signature'), png)).toBe(png);
    expect(rejected(f('signature'), 'data:image/jpeg;base64,AAAA')).toBe('invalid_signature');
    expect(rejected(f('signature'), 'data:image/png;base64,<svg>')).toBe('invalid_signature');
    expect(rejected(f('signature'), `data:image/png;base64,${'A'.repeat(300_000)}`)).toBe('too_long');
  });

  it('file_upload: uploaded-file objects within count, size and type limits', () => {
    const field = f('file_upload', { maxFiles: 2, maxSizeMb: 1, accept: ['.pdf', 'image/*'] });
    expect(accepted(field, [file])).toEqual([file]);
    expect(accepted(field, { ...file, extra: 'dropped' })).toEqual([file]);
    expect(accepted(field, [{ ...file, fileName: 'a.bin', mimeType: 'image/png' }])).toHaveLength(1);
    expect(rejected(field, [file, file, file])).toBe('too_many_files');
    expect(rejected(field, [{ ...file, size: 1024 * 1024 + 1 }])).toBe('file_too_large');
    expect(rejected(field, [{ ...file, fileName: 'a.exe', mimeType: 'application/x-msdownload' }])).toBe('file_type_not_accepted');
    expect(rejected(field, [{ ...file, url: 'javascript:alert(1)' }])).toBe('invalid_file');
    expect(rejected(field, ['cv.pdf'])).toBe('invalid_file');
    expect(accepted(f('file_upload', { maxFiles: 1, maxSizeMb: 10, accept: [] }), [{ ...file, mimeType: 'x/y' }])).toHaveLength(1);
  });

  it('hidden: by data type', () => {
    expect(accepted(f('hidden', { name: 'src', dataType: 'text' }), 'newsletter')).toBe('newsletter');
    expect(accepted(f('hidden', { name: 'n', dataType: 'number' }), '12')).toBe(12);
    expect(rejected(f('hidden', { name: 'n', dataType: 'number' }), 'twelve')).toBe('invalid_number');
  });

  it('statement and payment take no answer', () => {
    expect(coerceAnswer(f('statement'), 'x')).toEqual({ ok: false, code: 'not_answerable', message: 'This field takes no answer.' });
    expect(rejected(f('payment', { currency: 'USD', amount: { type: 'fixed', value: 100 } }), undefined)).toBe('not_answerable');
  });
});

describe('isAnswered', () => {
  it.each<[unknown, boolean]>([
    [undefined, false],
    [null, false],
    ['', false],
    ['  ', false],
    [[], false],
    ['x', true],
    [0, true],
    [false, true],
    [['a'], true],
  ])('%j → %s', (value, expected) => {
    expect(isAnswered(value as never)).toBe(expected);
  });
});

describe('answerToText', () => {
  it('writes answers for display', () => {
    const opts = options('a', 'b');
    expect(answerToText(f('single_choice', { options: opts }), 'b')).toBe('B');
    expect(answerToText(f('single_choice', { options: opts, allowOther: true }), 'my own')).toBe('my own');
    expect(answerToText(f('multiple_choice', { options: opts }), ['a', 'b'])).toBe('A, B');
    expect(answerToText(f('ranking', { options: opts }), ['b', 'a'])).toBe('B, A');
    expect(answerToText(f('checkbox'), true)).toBe('Yes');
    expect(answerToText(f('checkbox'), false)).toBe('No');
    expect(answerToText(f('file_upload', { maxFiles: 2, maxSizeMb: 1, accept: [] }), [file, { ...file, fileName: 'b.png' }])).toBe('cv.PDF, b.png');
    expect(answerToText(f('signature'), png)).toBe('Signed');
    expect(answerToText(f('number'), 3.5)).toBe('3.5');
    expect(answerToText(f('text'), 'hi')).toBe('hi');
    expect(answerToText(f('text'), undefined)).toBe('');
  });
});

describe('browser safety', () => {
  // answers.ts is bundled into the hosted form's script: neither it nor anything it imports may use zod or node.
  // Type-only imports are erased by the bundler, so they may name packages (the error codes of @forms/contracts).
  it('imports only dependency-free local modules', () => {
    const { readFileSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
    const path = jest.requireActual<typeof import('node:path')>('node:path');
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, typeOnly, spec] of readFileSync(file, 'utf8').matchAll(/import (type )?[^;]*?from '([^']+)'/g)) {
        if (typeOnly && !spec.startsWith('.')) continue;
        expect({ file: path.basename(file), spec, local: spec.startsWith('./') }).toEqual({ file: path.basename(file), spec, local: true });
        visit(path.join(path.dirname(file), `${spec}.ts`));
      }
    };
    visit(path.join(__dirname, 'answers.ts'));
    expect([...seen].map((f) => path.basename(f)).sort()).toEqual(['answers.ts', 'defaults.ts', 'formats.ts', 'model.ts', 'phone.ts']);
  });
});
