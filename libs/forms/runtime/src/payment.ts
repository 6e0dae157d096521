import type { PaymentField } from '@forms/draft-schema';
import { own } from './lookup';
import type { Answers, RunState } from './run-state';

/**
 * The amount to charge in the currency's minor units, given its ISO 4217 exponent (`minorDigits`: 2 for USD, 0 for
 * JPY, 3 for KWD). Fixed amounts are minor units already; amounts read from a numeric answer, a number hidden field or
 * a number variable are major units (×10^minorDigits). Only numbers count: a label or a text answer, even one that
 * reads like a number, is 0, and so is anything negative or not finite.
 */
export function paymentAmount(field: PaymentField, state: RunState, answers: Answers, minorDigits: number): number {
  const { amount } = field;
  const minor =
    amount.type === 'fixed'
      ? amount.value
      : 10 ** minorDigits *
        toNumber(
          amount.type === 'field' ? (own(state.hidden, amount.fieldId) ?? own(answers, amount.fieldId)) : (own(state.variables, amount.variableId) ?? 0),
        );
  return Number.isFinite(minor) && minor > 0 ? Math.round(minor) : 0;
}

function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : NaN;
}
