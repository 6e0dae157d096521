/// <reference lib="dom" />
import type { DraftSchema } from '@forms/draft-schema';
import { PAGE_IDS } from '../ids';
import { stepProgressPercent, stepProgressText } from '../progress';

/** Moves the progress indicator to a step (its place in the form; routing may skip steps) and returns its text. */
export function showProgress(schema: DraftSchema, stepId: string): string {
  const total = schema.steps.length;
  const position = schema.steps.findIndex((step) => step.id === stepId) + 1;
  const text = stepProgressText(position, total);
  const track = document.getElementById(PAGE_IDS.progress);
  const label = document.getElementById(PAGE_IDS.progressLabel);
  const bar = track?.firstElementChild as HTMLElement | null | undefined;
  if (!track || !label || !bar) return '';
  track.setAttribute('aria-valuenow', String(position));
  track.setAttribute('aria-valuetext', text);
  label.textContent = text;
  bar.style.width = `${stepProgressPercent(position, total)}%`;
  return text;
}
