/// <reference lib="dom" />
import type { Field, UploadedFile } from '@forms/draft-schema';
import { all } from './dom';
import { signatureValue } from './signature';

/** A field's raw value as its controls hold it, for `coerceAnswer`; undefined when nothing is entered or chosen. */
export function rawValue(field: Field, container: HTMLElement, uploads: Record<string, UploadedFile[]>): unknown {
  switch (field.type) {
    case 'checkbox':
      return container.querySelector<HTMLInputElement>('input[type=checkbox]')?.checked ?? false;
    case 'multiple_choice':
      return all<HTMLInputElement>(container, 'input[type=checkbox]:checked').map((input) => input.value);
    case 'single_choice': {
      const chosen = container.querySelector<HTMLInputElement>('input[type=radio]:checked');
      if (!chosen) return undefined;
      return chosen.dataset.other === undefined ? chosen.value : (container.querySelector<HTMLInputElement>('.other-text')?.value ?? '');
    }
    case 'rating':
    case 'opinion_scale':
    case 'nps': {
      const chosen = container.querySelector<HTMLInputElement>('input[type=radio]:checked');
      return chosen ? Number(chosen.value) : undefined;
    }
    case 'ranking':
      return all(container, 'li[data-value]').map((item) => item.dataset.value ?? '');
    case 'file_upload':
      return uploads[field.id] ?? [];
    case 'signature':
      return signatureValue(container);
    default: {
      const control = container.querySelector<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('input, select, textarea');
      // A number input reports '' for text it cannot parse; pass something coerceAnswer rejects instead.
      return control?.validity.badInput ? 'not a number' : control?.value;
    }
  }
}
