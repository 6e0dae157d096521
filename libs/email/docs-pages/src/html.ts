import { escapeHtml } from '@shared/core';

/** Markup that is already escaped: `html` inserts it as it is. */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

export type Interpolation = SafeHtml | string | number | false | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** A template whose interpolated values are escaped (SafeHtml and lists of it are kept as they are). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, text, index) => out + text + (index < values.length ? render(values[index]) : ''), ''));
}

/** A code block; `text` is shown exactly, escaped. Long lines scroll, unless `wrap` (for JSON, where wrapping is harmless). */
export const codeBlock = (text: string, label: string, wrap = false): SafeHtml =>
  html`<pre aria-label="${label}" tabindex="0" ${wrap ? html` class="wrap"` : ''}><code>${text}</code></pre>`;

/** JSON indented like JSON.stringify(value, null, 2), but with lists of plain values on one line, so examples stay short. */
export function exampleJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) return `[${value.map((item) => JSON.stringify(item)).join(', ')}]`;
    return `[\n${value.map((item) => inner + exampleJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  return entries.length ? `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${exampleJson(item, inner)}`).join(',\n')}\n${indent}}` : '{}';
}

export const jsonBlock = (value: unknown, label: string): SafeHtml => codeBlock(exampleJson(value), label, true);

/** Text whose `backticked` parts are code, as the error registry writes its descriptions. */
export const withCode = (text: string): SafeHtml => html`${text.split('`').map((part, index) => (index % 2 ? html`<code>${part}</code>` : part))}`;

/** A table: column headings, then one row of cells per entry. */
export const table = (headings: readonly string[], rows: ReadonlyArray<readonly Interpolation[]>): SafeHtml =>
  html`<table>
    <thead>
      <tr>
        ${headings.map((heading) => html`<th scope="col">${heading}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (cells) =>
          html`<tr>
            ${cells.map((cell) => html`<td>${cell}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
