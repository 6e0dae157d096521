import { ID_PATTERN } from './formats';
import type { Target } from './model';
import { isRecord } from './object';

export const TARGET_SPELLINGS = '"end", a step id, "thank_you:<screen_id>", {"type":"end"}, {"type":"step","stepId":…} or {"type":"thank_you","screenId":…}';

/**
 * Reads every spelling of a target the API accepts and returns the stored object form, or undefined.
 * The string `end` always means the end, which is why no step may have the id `end`.
 */
export function parseTarget(input: unknown): Target | undefined {
  if (typeof input === 'string') {
    if (input === 'end') return { type: 'end' };
    if (input.startsWith('thank_you:')) {
      const screenId = input.slice('thank_you:'.length);
      return ID_PATTERN.test(screenId) ? { type: 'thank_you', screenId } : undefined;
    }
    return ID_PATTERN.test(input) ? { type: 'step', stepId: input } : undefined;
  }
  if (!isRecord(input)) return undefined;
  const keys = Object.keys(input).sort().join(',');
  const ref = (key: string): string | undefined => {
    const value = input[key];
    return typeof value === 'string' && ID_PATTERN.test(value) ? value : undefined;
  };
  if (input.type === 'end' && keys === 'type') return { type: 'end' };
  const stepId = ref('stepId');
  if (input.type === 'step' && keys === 'stepId,type' && stepId) return { type: 'step', stepId };
  const screenId = ref('screenId');
  if (input.type === 'thank_you' && keys === 'screenId,type' && screenId) return { type: 'thank_you', screenId };
  return undefined;
}
