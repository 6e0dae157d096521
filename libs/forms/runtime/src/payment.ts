import type { PaymentField } from '@forms/draft-schema';
import { own } from './lookup';
import type { Answers, RunState } from './run-state';

/**
 * The amount to charge in minor units. Fixed amounts are minor units already; amounts read from a numeric answer,
 * a number hidden field or a number variable are major units (×100). Anything negative or not a number is 0.
 */
export function paymentAmount(field: PaymentField, state: RunState, answers: Answers): number {
  const { amount } = field;
  const minor =
    amount.type === 'fixed'
      ? amount.value
      : 100 *
        toNumber(
          amount.type === 'field' ? (own(state.hidden, amount.fieldId) ?? own(answers, amount.fieldId)) : (own(state.variables, amount.variableId) ?? 0),
        );
  return Number.isFinite(minor) && minor > 0 ? Math.round(minor) : 0;
}

function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : NaN;
}
