import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsEmail, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { ClosedObject, Omittable } from '@shared/errors';
import { Pagination } from '@shared/pagination';
import { AudienceDefinitionDto, type AudienceDefinition } from '@email/audience-engine';
import { BroadcastStatus } from '@email/data-access';
import { BroadcastEmailNodeDto } from './email-document.dto';

const documentRef = { allOf: [{ $ref: getSchemaPath(BroadcastEmailNodeDto) }] };
const audienceRef = { allOf: [{ $ref: getSchemaPath(AudienceDefinitionDto) }], nullable: true };
const nullableText = { type: String, nullable: true };
const dateTime = { type: String, format: 'date-time' };
const nullableDateTime = { ...dateTime, nullable: true };
const count = { type: 'integer' } as const;
const summaryCount = { type: 'integer', minimum: 0 } as const;
const BROADCAST_STATUSES = Object.values(BroadcastStatus);

@ApiExtraModels(BroadcastEmailNodeDto, AudienceDefinitionDto)
export class BroadcastDto {
  @ApiProperty({ example: '/v1/broadcasts/brd_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() subject!: string;
  @ApiProperty(nullableText) preview_text!: string | null;
  @ApiProperty({ description: 'The rendered HTML of body_document (every token at its fallback, without footer or tracking). Output only.' })
  body!: string;
  @ApiProperty(documentRef) body_document!: unknown;
  @ApiProperty({ enum: BROADCAST_STATUSES }) status!: string;
  @ApiProperty(nullableDateTime) scheduled_at!: string | null;
  @ApiProperty(nullableDateTime) completed_at!: string | null;
  @ApiProperty(nullableText) connection_id!: string | null;
  @ApiProperty({ ...nullableText, description: "The connection's sender name (not writable)." }) from_name!: string | null;
  @ApiProperty({ ...nullableText, description: "The connection's sender address (not writable)." }) from_email!: string | null;
  @ApiProperty(nullableText) reply_to_email!: string | null;
  @ApiProperty(audienceRef) audience_definition!: AudienceDefinition | null;
  @ApiProperty() track_opens!: boolean;
  @ApiProperty() track_clicks!: boolean;
  @ApiProperty(nullableText) utm_source!: string | null;
  @ApiProperty(nullableText) utm_medium!: string | null;
  @ApiProperty(nullableText) utm_campaign!: string | null;
  @ApiProperty(nullableText) utm_term!: string | null;
  @ApiProperty(nullableText) utm_content!: string | null;
  @ApiProperty(count) recipient_count!: number;
  @ApiProperty(count) opened_count!: number;
  @ApiProperty(count) clicked_count!: number;
  @ApiProperty(count) unsubscribed_count!: number;
  @ApiProperty(count) bounced_count!: number;
  @ApiProperty(count) complained_count!: number;
  @ApiProperty(dateTime) created_at!: string;
  @ApiProperty(dateTime) updated_at!: string;
}

@ClosedObject()
export class BroadcastSummaryDto {
  @ApiProperty({ example: '/v1/broadcasts/brd_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() subject!: string;
  @ApiProperty(nullableText) preview_text!: string | null;
  @ApiProperty({ enum: BROADCAST_STATUSES }) status!: string;
  @ApiProperty(nullableDateTime) scheduled_at!: string | null;
  @ApiProperty(nullableDateTime) completed_at!: string | null;
  @ApiProperty(summaryCount) recipient_count!: number;
  @ApiProperty(summaryCount) opened_count!: number;
  @ApiProperty(summaryCount) clicked_count!: number;
  @ApiProperty(summaryCount) unsubscribed_count!: number;
  @ApiProperty(summaryCount) bounced_count!: number;
  @ApiProperty(summaryCount) complained_count!: number;
  @ApiProperty(dateTime) created_at!: string;
  @ApiProperty(dateTime) updated_at!: string;
}

export class BroadcastResponseDto {
  @ApiProperty({ type: BroadcastDto }) data!: BroadcastDto;
}

export class BroadcastListDto {
  @ApiProperty({ type: [BroadcastSummaryDto] }) data!: BroadcastSummaryDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

/** An optional nullable string: absent leaves it, null clears it. */
const optionalText = () => [IsOptional(), ValidateIf((_: unknown, value: unknown) => value !== null), IsString()];
const apply =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, key) => {
    for (const decorator of decorators) decorator(target, key);
  };
const OptionalText = () => apply(ApiPropertyOptional(nullableText), ...optionalText());
const OptionalBoolean = () => apply(ApiPropertyOptional({ type: Boolean }), Omittable(), IsBoolean());

/** The fields a draft's writes share; subject and body_document are required on create only. */
class BroadcastWriteFields {
  @OptionalText() preview_text?: string | null;

  @ApiPropertyOptional(nullableText)
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  connection_id?: string | null;

  @ApiPropertyOptional(nullableText)
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @IsEmail({}, { message: 'reply_to_email must be an email address' })
  reply_to_email?: string | null;

  @ApiPropertyOptional({ ...audienceRef })
  @IsOptional()
  audience_definition?: unknown;

  @OptionalBoolean() track_opens?: boolean;
  @OptionalBoolean() track_clicks?: boolean;
  @OptionalText() utm_source?: string | null;
  @OptionalText() utm_medium?: string | null;
  @OptionalText() utm_campaign?: string | null;
  @OptionalText() utm_term?: string | null;
  @OptionalText() utm_content?: string | null;
}

@ClosedObject()
@ApiExtraModels(BroadcastEmailNodeDto, AudienceDefinitionDto)
export class BroadcastUpsertRequestDto extends BroadcastWriteFields {
  @ApiProperty()
  @IsString()
  subject!: string;

  @ApiProperty(documentRef)
  @IsDefined()
  body_document!: unknown;
}

/** At least one property: an empty update is refused as `empty_update`. */
@ClosedObject({ minProperties: 1 })
@ApiExtraModels(BroadcastEmailNodeDto, AudienceDefinitionDto)
export class BroadcastUpdateRequestDto extends BroadcastWriteFields {
  @ApiPropertyOptional()
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  subject?: string;

  @ApiPropertyOptional(documentRef)
  @ValidateIf((_, value) => value !== undefined)
  @IsDefined()
  body_document?: unknown;
}

/** The contract's pattern: a real calendar date and time with an explicit offset (`Z` or `±hh:mm`). */
export const OFFSET_DATE_TIME =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

@ClosedObject()
export class BroadcastScheduleRequestDto {
  @ApiProperty({ pattern: OFFSET_DATE_TIME.source, description: 'A future time with an explicit offset, e.g. 2026-05-01T09:00:00+02:00.' })
  @IsString()
  @Matches(OFFSET_DATE_TIME, { message: 'scheduled_at must be an ISO 8601 date-time with an explicit offset (Z or ±hh:mm)' })
  scheduled_at!: string;
}

@ClosedObject()
export class BroadcastTestRequestDto {
  @ApiProperty({ format: 'email', description: 'Any inbox; it does not have to be a subscriber.' })
  @IsString()
  @IsEmail({}, { message: 'recipient must be an email address' })
  recipient!: string;

  @ApiProperty({ description: 'The saved subscriber whose name, email and custom fields personalize the test.' })
  @IsString()
  subscriber_id!: string;
}

@ClosedObject()
export class BroadcastTestResultDto {
  @ApiProperty({ enum: ['completed'] }) status!: 'completed';
  @ApiProperty() subscriber_id!: string;
}

export class BroadcastTestResultResponseDto {
  @ApiProperty({ type: BroadcastTestResultDto }) data!: BroadcastTestResultDto;
}

export class BroadcastSendRequestDto {
  @ApiPropertyOptional({ description: 'The send_proof of a recent passing preflight, unchanged.' })
  @IsOptional()
  @IsString()
  preflight_proof?: string;
}

export class BroadcastSendResultDto {
  @ApiProperty({ enum: ['running', 'queued'] }) status!: 'running' | 'queued';
  @ApiProperty() run_id!: string;
  @ApiProperty({ type: BroadcastDto }) resource!: BroadcastDto;
}

export class BroadcastSendResponseDto {
  @ApiProperty({ type: BroadcastSendResultDto }) data!: BroadcastSendResultDto;
}

export class BroadcastCancelResultDto {
  @ApiProperty({ enum: ['canceling', 'canceled'] }) status!: 'canceling' | 'canceled';
  @ApiProperty() run_id!: string;
  @ApiProperty({ description: 'Whether this request moved the send to canceling (false: it was already canceling or canceled).' }) changed!: boolean;
  @ApiProperty({ description: 'The send was paused: the cancel is saved and the send worker finishes it at its next recovery pass.' })
  recovery_pending!: boolean;
  @ApiProperty() message!: string;
}

export class BroadcastCancelResponseDto {
  @ApiProperty({ type: BroadcastCancelResultDto }) data!: BroadcastCancelResultDto;
}
