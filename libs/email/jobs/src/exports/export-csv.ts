import { spreadsheetSafeText } from '@shared/core';

/** A cell as text (lists comma-separated), neutralised against formula injection. */
export function safeCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return spreadsheetSafeText(Array.isArray(value) ? value.join(', ') : String(value));
}

/** The standard columns, in order; then `tags`, then one column per custom field, headed by its label. */
export const STANDARD_COLUMNS = ['id', 'email', 'name', 'status', 'country', 'subscribed_at', 'last_opened_at', 'created_at', 'updated_at'] as const;
