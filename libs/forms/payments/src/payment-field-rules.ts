import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { FormsErrors } from '@forms/contracts';
import { DEFAULT_PAYMENT_PROVIDER, type DraftSchema, type Field } from '@forms/draft-schema';
import type { DraftCheck } from '@forms/forms';
import type { WorkspaceId } from '@shared/core';
import { currencyMinorDigits } from './minor-units';
import { PaymentsRepository } from './payments.repository';
import { MAX_AMOUNT } from './payments.service';

const fieldsOf = (draft: DraftSchema) => draft.steps.flatMap((step) => step.fields);
const providerOf = (field: Field) => (field.type === 'payment' ? (field.provider ?? DEFAULT_PAYMENT_PROVIDER) : null);

/**
 * What taking a payment will require of a payment field (see PaymentsService.createOrder), checked when any draft
 * write stores one (a new or changed field, a whole new draft, a new or cloned form): a currency with a known minor
 * unit, a fixed amount a stored order can hold, and, when the write changes who collects it (a new payment field,
 * another provider, another workspace), a provider the workspace has connected. 4xx naming the field's property
 * (`fields.<id>.<property>`).
 */
@Injectable()
export class PaymentFieldRules {
  constructor(private readonly repository: PaymentsRepository) {}

  /** `before`: the field as it was in this workspace's draft, if it was there. */
  async checkField(workspaceId: WorkspaceId, field: Field, before?: Field): Promise<void> {
    if (field.type !== 'payment') return;
    const at = `fields.${field.id}`;
    if (currencyMinorDigits(field.currency) === null)
      throw FormsErrors.invalid('unsupported_currency', `${field.currency} is not a currency payments can be taken in.`, `${at}.currency`);
    if (field.amount.type === 'fixed' && field.amount.value > MAX_AMOUNT)
      throw FormsErrors.invalid('too_large', `A fixed amount is at most ${MAX_AMOUNT} minor units.`, `${at}.amount`);
    const provider = providerOf(field)!;
    if (before && providerOf(before) === provider) return;
    if (!(await this.repository.integration(workspaceId, provider)))
      throw FormsErrors.fail('payment_provider_not_connected', `The workspace has not connected ${provider}, which this payment field collects with.`, {
        details: { field: `${at}.provider` },
      });
  }

  /** A copy of `draft` into `target`, from the source form's workspace. */
  async checkCopy(target: WorkspaceId, draft: DraftSchema, source: WorkspaceId): Promise<void> {
    for (const field of fieldsOf(draft)) await this.checkField(target, field, source === target ? field : undefined);
  }

  /** The payment fields a draft write adds or changes, by id against the stored draft it replaces (none: a new form). */
  async checkDraft(workspaceId: WorkspaceId, draft: DraftSchema, before: DraftSchema | undefined): Promise<void> {
    const stored = new Map((before ? fieldsOf(before) : []).map((field) => [field.id, field]));
    for (const field of fieldsOf(draft)) {
      const was = stored.get(field.id);
      if (!was || !isDeepStrictEqual(was, field)) await this.checkField(workspaceId, field, was);
    }
  }

  /** checkDraft as the forms module's draft writes take it. */
  forDrafts(workspaceId: WorkspaceId): DraftCheck {
    return (draft, before) => this.checkDraft(workspaceId, draft, before);
  }
}
