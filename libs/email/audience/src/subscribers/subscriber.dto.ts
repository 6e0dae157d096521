import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsEmail, IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { NotBlank, Omittable } from '@shared/errors';
import { Pagination, SearchablePageQueryDto } from '@shared/pagination';
import { SEQUENCE_OPERATORS, TAG_OPERATORS } from '@email/audience-engine';
import { ConsentEvidenceDto } from '../common/consent.dto';

export const SUBSCRIBER_STATUSES = ['Active', 'Unconfirmed', 'Unsubscribed', 'Complained', 'Bounced', 'Blocked'] as const;
export type SubscriberStatusName = (typeof SUBSCRIBER_STATUSES)[number];

const notBlank = (_: object, value: unknown) => value !== null && value !== undefined && value !== '';
const asList = ({ value }: { value: unknown }) => (value === undefined ? undefined : Array.isArray(value) ? value : [value]);

export class TagSummaryDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class SubscriberDto {
  @ApiProperty({ example: '/v1/subscribers/sub_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: SUBSCRIBER_STATUSES }) status!: SubscriberStatusName;
  @ApiProperty({ type: String, nullable: true, description: 'ISO 3166-1 alpha-2 code.' }) country!: string | null;
  @ApiProperty({ format: 'date-time' }) subscribed_at!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) last_opened_at?: string | null;
  @ApiProperty({ type: [TagSummaryDto] }) tags!: TagSummaryDto[];
  @ApiProperty({ type: [String] }) sequence_ids!: string[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Values keyed by custom field id.' })
  custom_fields!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class SubscriberResponseDto {
  @ApiProperty({ type: SubscriberDto }) data!: SubscriberDto;
}

export class SubscriberListDto {
  @ApiProperty({ type: [SubscriberDto] }) data!: SubscriberDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

/**
 * Fields shared by the upsert and update bodies; blank values leave saved values unchanged. `null` is accepted where
 * the contract types a plain string (it means blank), but documented as the contract types it.
 */
class SubscriberProfileFields {
  @ApiPropertyOptional({ type: String, maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'A country code or English country name; saved as ISO 3166-1 alpha-2.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  country?: string | null;

  @ApiPropertyOptional({ type: String, description: 'Subscriber-local subscription date, YYYY-MM-DD.', example: '2026-01-31' })
  @IsOptional()
  @IsString()
  @MaxLength(10)
  subscribed_on?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Values keyed by custom field id.' })
  @IsOptional()
  @IsObject()
  custom_fields?: Record<string, unknown> | null;
}

export class SubscriberUpsertRequestDto extends SubscriberProfileFields {
  @ApiProperty({ format: 'email', maxLength: 254 })
  @IsString()
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @ApiPropertyOptional({ enum: SUBSCRIBER_STATUSES })
  @ValidateIf(notBlank)
  @IsIn(SUBSCRIBER_STATUSES)
  status?: SubscriberStatusName | null;

  @ApiPropertyOptional({ description: 'When true and the email exists, answer 409 instead of updating.' })
  @Omittable()
  @IsBoolean()
  create_only?: boolean;

  @ApiPropertyOptional({ type: ConsentEvidenceDto })
  @Omittable()
  @IsObject()
  @ValidateNested()
  @Type(() => ConsentEvidenceDto)
  consent_evidence?: ConsentEvidenceDto;

  @ApiPropertyOptional({ type: [String], maxItems: 100 })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  existing_tag_ids?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 100, description: 'Tag names; missing tags are created.' })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @NotBlank({ each: true })
  @MaxLength(255, { each: true })
  new_tags?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 100 })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  sequence_ids?: string[];
}

export class SubscriberUpdateRequestDto extends SubscriberProfileFields {
  @ApiPropertyOptional({ type: String, format: 'email', maxLength: 254 })
  @ValidateIf(notBlank)
  @IsString()
  @IsEmail()
  @MaxLength(254)
  email?: string;
}

export class SubscriberStatusRequestDto {
  @ApiProperty({ enum: SUBSCRIBER_STATUSES })
  @IsIn(SUBSCRIBER_STATUSES)
  status!: SubscriberStatusName;

  @ApiPropertyOptional({ type: ConsentEvidenceDto, description: 'Required when the change makes the subscriber Active.' })
  @Omittable()
  @IsObject()
  @ValidateNested()
  @Type(() => ConsentEvidenceDto)
  consent_evidence?: ConsentEvidenceDto;
}

export class SubscriberListQueryDto extends SearchablePageQueryDto {
  @ApiPropertyOptional({ format: 'email', description: 'Exact email address.' })
  @IsOptional()
  @IsString()
  @MaxLength(254)
  email?: string;

  @ApiPropertyOptional({ enum: SUBSCRIBER_STATUSES })
  @IsOptional()
  @IsIn(SUBSCRIBER_STATUSES)
  status?: SubscriberStatusName;

  @ApiPropertyOptional({ type: Boolean, description: 'Only subscribers with no open in the last 90 days.' })
  @IsOptional()
  @IsIn(['true', 'false'])
  cold_only?: 'true' | 'false';

  @ApiPropertyOptional({ type: String, description: 'A tag id; also accepted repeated.' })
  @IsOptional()
  @Transform(asList)
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  tag_id?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated tag ids.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  tag_ids?: string;

  @ApiPropertyOptional({ enum: TAG_OPERATORS, default: 'has_any_of' })
  @IsOptional()
  @IsIn(TAG_OPERATORS)
  tag_operator?: (typeof TAG_OPERATORS)[number];

  @ApiPropertyOptional({ type: String, description: 'A sequence id; also accepted repeated.' })
  @IsOptional()
  @Transform(asList)
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  sequence_id?: string[];

  @ApiPropertyOptional({ description: 'Comma-separated sequence ids.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  sequence_ids?: string;

  @ApiPropertyOptional({ enum: SEQUENCE_OPERATORS, default: 'is_active_in_any_of' })
  @IsOptional()
  @IsIn(SEQUENCE_OPERATORS)
  sequence_operator?: (typeof SEQUENCE_OPERATORS)[number];
}
