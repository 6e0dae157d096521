import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { draftComponentRef, FIELD_TYPES, type AnswerValue, type FieldType, type ThankYouScreen, type UploadedFile } from '@forms/draft-schema';
import type { RecordedPayment } from '@forms/payments';
import type { SubmissionRecord, SubmissionResult } from './submission-record';

type RecordedForm = SubmissionRecord['form'];
type RecordedSubmission = SubmissionRecord['submission'];
type RecordedAnswer = SubmissionRecord['answers'][number];
type RecordedField = SubmissionRecord['fields'][number];
type RecordedMeta = SubmissionRecord['meta'];

export class UploadedFileDto implements UploadedFile {
  @ApiProperty() id!: string;
  @ApiProperty() fileName!: string;
  @ApiProperty() mimeType!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Bytes.' }) size!: number;
  @ApiProperty({ description: 'Download path (needs an API key with submissions:read).' }) url!: string;
}

/** A normalized answer (see `AnswerValue`): text, a number, a checkbox, chosen or ranked option values, or uploaded files. */
const answerValue = {
  anyOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'array', items: { type: 'string' } },
    { type: 'array', items: { $ref: getSchemaPath(UploadedFileDto) } },
  ],
};

export class SubmissionFormDto implements RecordedForm {
  @ApiProperty() id!: string;
  @ApiProperty() workspaceId!: string;
  @ApiProperty() title!: string;
  @ApiProperty() publicId!: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The published version the answers were checked against.' }) publishedVersion!: number;
}

export class QuizOutcomeDto {
  @ApiProperty({ type: String, nullable: true }) endingId!: string | null;
  @ApiProperty() score!: number;
}

export class PaymentDueDto implements RecordedPayment {
  @ApiProperty() fieldId!: string;
  @ApiProperty({
    type: 'integer',
    description: 'Minor units of the currency (its ISO 4217 exponent: 2 for USD, 0 for JPY, 3 for KWD), computed on the server.',
  })
  amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({
    enum: ['unpaid', 'pending', 'paid', 'failed'],
    description: 'unpaid: no checkout started; pending: an order awaits payment (the provider’s webhook settles it); paid; failed.',
  })
  status!: RecordedPayment['status'];
  @ApiPropertyOptional({ enum: ['stripe', 'razorpay'] }) provider?: RecordedPayment['provider'];
  @ApiPropertyOptional({ description: 'The payment id the order endpoint returned.' }) paymentRef?: string;
  @ApiPropertyOptional({ description: 'The provider’s order id (Razorpay order, Stripe PaymentIntent).' }) orderId?: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'The provider’s payment id.' }) paymentId?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) paidAt?: string | null;
}

export class SubmissionDetailsDto implements RecordedSubmission {
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ enum: ['completed'] }) status!: 'completed';
  @ApiProperty({ type: [String], description: 'The steps the respondent passed through, recomputed on the server.' }) completedStepIds!: string[];
  @ApiProperty() thankYouScreenId!: string;
  @ApiProperty({ type: String, nullable: true }) redirectTo!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { anyOf: [{ type: 'number' }, { type: 'string' }, { type: 'null' }] },
    description: 'Workflow variables by id, as they ended.',
  })
  variables!: Record<string, number | string | null>;
  @ApiProperty({ type: QuizOutcomeDto, nullable: true }) quiz!: QuizOutcomeDto | null;
  @ApiProperty({ type: [PaymentDueDto] }) payments!: PaymentDueDto[];
}

export class AnswerDto implements RecordedAnswer {
  @ApiProperty() fieldId!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ enum: FIELD_TYPES }) type!: FieldType;
  @ApiProperty(answerValue) value!: AnswerValue;
  @ApiProperty({ description: 'The answer as readable text.' }) text!: string;
}

export class SubmissionFieldDto implements RecordedField {
  @ApiProperty() id!: string;
  @ApiProperty() stepId!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ enum: FIELD_TYPES }) type!: FieldType;
  @ApiProperty() required!: boolean;
}

export class SubmissionMetaDto implements RecordedMeta {
  @ApiProperty({ enum: ['api', 'hosted_form'] }) source!: 'api' | 'hosted_form';
  @ApiProperty({ type: String, nullable: true }) analyticsSessionId!: string | null;
  @ApiProperty({ type: Boolean, nullable: true }) marketingTrackingAllowed!: boolean | null;
  @ApiProperty({ type: String, nullable: true }) viewerCountry!: string | null;
  @ApiProperty({ type: [String], nullable: true, description: 'What the client reported as completed; never trusted.' }) clientCompletedStepIds!:
    string[] | null;
  @ApiProperty({ type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }] }, description: 'Hidden field values by name.' })
  hiddenValues!: Record<string, string | number>;
}

/** The stored submission, shaped like the event a webhook would carry. */
export class SubmissionRecordDto implements SubmissionRecord {
  @ApiProperty({ enum: ['form.submitted'] }) event!: 'form.submitted';
  @ApiProperty() eventId!: string;
  @ApiProperty({ type: SubmissionFormDto }) form!: SubmissionFormDto;
  @ApiProperty({ type: SubmissionDetailsDto }) submission!: SubmissionDetailsDto;
  @ApiProperty({ type: [AnswerDto], description: 'Answered fields in form order.' }) answers!: AnswerDto[];
  @ApiProperty({ type: [SubmissionFieldDto], description: 'Every answerable field of the published version.' }) fields!: SubmissionFieldDto[];
  @ApiProperty({ type: SubmissionMetaDto }) meta!: SubmissionMetaDto;
  @ApiProperty({ type: 'object', additionalProperties: answerValue }) answersByFieldId!: Record<string, AnswerValue>;
}

export class SubmissionListDto {
  @ApiProperty({ type: [SubmissionRecordDto] }) data!: SubmissionRecordDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Always null: the list is not paged; use `after` to read on.' }) next_cursor!: null;
}

export class SubmissionDto {
  @ApiProperty({ type: SubmissionRecordDto }) data!: SubmissionRecordDto;
}

export class CreatedSubmissionDetailsDto extends SubmissionDetailsDto {
  @ApiProperty() formId!: string;
}

export class SubmissionCreatedDto implements SubmissionResult {
  @ApiProperty({ type: CreatedSubmissionDetailsDto }) submission!: CreatedSubmissionDetailsDto;
  @ApiProperty({ allOf: [{ $ref: draftComponentRef('ThankYouScreen') }], description: 'The ending screen to show.' }) thank_you!: ThankYouScreen;
  @ApiPropertyOptional({ description: 'Where to send the respondent, when the ending screen redirects.' }) redirect_to?: string;
}

/** The wrapper form of a submission body; the plain form is the field-value map alone. */
export class SubmissionInputDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Answers by field id.' }) values!: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Hidden field values by name.' }) hiddenValues?: Record<string, unknown>;
  @ApiPropertyOptional({ type: [String], maxItems: 200, description: 'What the client completed (kept for diagnostics; the server recomputes it).' })
  completedStepIds?: string[];
  @ApiPropertyOptional({ minLength: 1, maxLength: 128, description: 'One submission per session and form; a repeat is 409 duplicate_submission.' })
  analyticsSessionId?: string;
  @ApiPropertyOptional() marketingTrackingAllowed?: boolean;
  @ApiPropertyOptional({ pattern: '^[A-Za-z]{2}$', description: 'Two-letter country code.' }) viewerCountry?: string;
}
