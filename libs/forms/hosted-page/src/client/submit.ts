/// <reference lib="dom" />
import type { AnswerValue } from '@forms/draft-schema';

export interface SubmissionBody {
  values: Record<string, AnswerValue>;
  hiddenValues: Record<string, string>;
  completedStepIds: string[];
  analyticsSessionId: string;
  /** The payment id of each payment field whose checkout was started (paid, or pending for the webhook to settle). */
  payments?: Record<string, string>;
}

export type SubmitOutcome = { ok: true; screenId: string | null; redirectTo: string | null } | { ok: false; message: string; fieldId: string | null };

/** The API's answer as the page reads it: every leaf is checked before use. */
interface SubmitReply {
  thank_you?: { id?: unknown };
  redirect_to?: unknown;
  error?: { code?: unknown; message?: unknown; details?: { field?: unknown } };
}

const GENERIC_FAILURE = 'Something went wrong while sending your answers. Please try again.';
/** The page's form was republished without a question the person answered: nothing on the page can fix that. */
const FORM_CHANGED = 'This form was changed while you were filling it in. Reload the page to answer its current version.';

/** Posts the answers; a 4xx carries the server's message and, when it names one, the field it is about. */
export async function postSubmission(submitUrl: string, body: SubmissionBody): Promise<SubmitOutcome> {
  let response: Response;
  try {
    response = await fetch(submitUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: 'Could not reach the server. Check your connection and try again.', fieldId: null };
  }
  const data = (await response.json().catch(() => null)) as SubmitReply | null;
  if (response.ok) {
    return { ok: true, screenId: stringOrNull(data?.thank_you?.id), redirectTo: stringOrNull(data?.redirect_to) };
  }
  if (response.status >= 500) return { ok: false, message: GENERIC_FAILURE, fieldId: null };
  if (data?.error?.code === 'unknown_field') return { ok: false, message: FORM_CHANGED, fieldId: null };
  const path = stringOrNull(data?.error?.details?.field);
  const match = path && /^(?:values|payments)\.([^.[\]]+)/.exec(path);
  return { ok: false, message: stringOrNull(data?.error?.message) ?? GENERIC_FAILURE, fieldId: match ? match[1] : null };
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A random id for the analytics session of this page load. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
