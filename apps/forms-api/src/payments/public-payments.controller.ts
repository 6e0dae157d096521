import { Body, Controller, HttpCode, Ip, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { FormsErrors } from '@forms/contracts';
import { PublishedForm, PublishedForms } from '@forms/forms';
import { PaymentsService } from '@forms/payments';
import { PublicLimits, SubmissionsService } from '@forms/submissions';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The hosted page's payment step: an order for the amount the answers lead to (recomputed here from the published
 * form, never taken from the browser), then the check of what the provider's checkout reported.
 */
@ApiExcludeController()
@Public()
@Controller('api/public/forms/:public_id/payments/:provider')
export class PublicPaymentsController {
  constructor(
    private readonly published: PublishedForms,
    private readonly submissions: SubmissionsService,
    private readonly payments: PaymentsService,
    private readonly limits: PublicLimits,
  ) {}

  /** Body: the submission body so far (`values`, `hiddenValues`), plus `fieldId` when the path passes several payment fields. */
  @Post('order')
  @HttpCode(201)
  async order(@Ip() ip: string, @Param('public_id') publicId: string, @Param('provider') providerName: string, @Body() body: unknown) {
    const provider = this.payments.providerNamed(providerName);
    const form = await this.form(ip, publicId);
    const { fieldId, ...answers } = isObject(body) ? body : ({} as Record<string, unknown>);
    if (fieldId !== undefined && typeof fieldId !== 'string') throw FormsErrors.invalid('validation_failed', 'fieldId must be a string.', 'fieldId');
    const dues = this.submissions.paymentsDue(form, answers).filter((due) => due.amount > 0 && (fieldId === undefined || due.field.id === fieldId));
    if (!dues.length) {
      throw FormsErrors.invalid(
        'no_payment_due',
        'These answers lead past no payment field with an amount to pay.',
        fieldId === undefined ? 'values' : 'fieldId',
      );
    }
    return { data: await this.payments.createOrder(form, provider, dues[0]) };
  }

  /** Body: `payment_id` and what the checkout reported (Razorpay's three `razorpay_*` values, or Stripe's `payment_intent`). */
  @Post('verify')
  @HttpCode(200)
  async verify(@Ip() ip: string, @Param('public_id') publicId: string, @Param('provider') providerName: string, @Body() body: unknown) {
    const provider = this.payments.providerNamed(providerName);
    return { data: await this.payments.verify(await this.form(ip, publicId), provider, body) };
  }

  /** Counted with submissions: the same per-IP and per-form limits. */
  private async form(ip: string, publicId: string): Promise<PublishedForm> {
    await this.limits.submission(ip, publicId);
    const form = await this.published.byPublicId(publicId);
    if (!form) throw FormsErrors.notFound('form', publicId);
    return form;
  }
}
