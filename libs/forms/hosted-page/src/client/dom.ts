/// <reference lib="dom" />
import { fieldErrorId } from '../ids';

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`hosted form: #${id} is missing`);
  return element as T;
}

export function all<T extends Element = HTMLElement>(root: ParentNode, selector: string): T[] {
  return Array.from(root.querySelectorAll<T & Element>(selector));
}

/** Shows (or with null clears) a field's message and marks its controls invalid. */
export function setFieldError(container: HTMLElement, fieldId: string, message: string | null): void {
  const slot = document.getElementById(fieldErrorId(fieldId));
  if (slot) slot.textContent = message ?? '';
  for (const control of all(container, 'input, select, textarea')) {
    if (message) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
  }
}

/** The element to focus for a field: its first control (for ranking, the first move button). */
export function focusTarget(container: HTMLElement): HTMLElement | null {
  return container.querySelector<HTMLElement>('input, select, textarea, button');
}
