import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { NotBlank, Omittable } from '@shared/errors';
import { Pagination } from '@shared/pagination';

export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;
export type WebhookSubscriptionStatus = (typeof WEBHOOK_STATUSES)[number];
const DELIVERY_STATUSES = ['delivered', 'failed', null];

export class WebhookSubscriptionDto {
  @ApiProperty({ example: '/v1/webhook-subscriptions/wsb_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ enum: WEBHOOK_STATUSES }) status!: WebhookSubscriptionStatus;
  @ApiProperty({ type: [String] }) event_patterns!: string[];
  @ApiProperty({ description: 'The last four characters of the signing secret.' }) signing_secret_preview!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) delivery_attempts!: number;
  @ApiProperty({ type: String, enum: DELIVERY_STATUSES, nullable: true }) last_delivery_status!: 'delivered' | 'failed' | null;
  @ApiProperty({ type: String, nullable: true }) last_delivery_error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_delivered_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_failed_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class WebhookSubscriptionResponseDto {
  @ApiProperty({ type: WebhookSubscriptionDto }) data!: WebhookSubscriptionDto;
}

export class WebhookSubscriptionListDto {
  @ApiProperty({ type: [WebhookSubscriptionDto] }) data!: WebhookSubscriptionDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

export class WebhookSubscriptionCreateResultDto {
  @ApiProperty({ type: WebhookSubscriptionDto }) subscription!: WebhookSubscriptionDto;
  @ApiProperty({ description: 'The signing secret (`whsec_…`). Shown only here: store it now.' }) signing_secret!: string;
}

export class WebhookSubscriptionCreateResultResponseDto {
  @ApiProperty({ type: WebhookSubscriptionCreateResultDto }) data!: WebhookSubscriptionCreateResultDto;
}

export class WebhookSubscriptionDeletedDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export class WebhookSubscriptionDeletedResponseDto {
  @ApiProperty({ type: WebhookSubscriptionDeletedDto }) data!: WebhookSubscriptionDeletedDto;
}

// Name and URL lengths are bounded by the validators only: the contract's schemas state no bound.
export class WebhookSubscriptionCreateRequestDto {
  @ApiProperty()
  @IsString()
  @NotBlank()
  @MaxLength(255)
  name!: string;

  @ApiProperty()
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({ type: [String] })
  @IsArray()
  @ArrayMaxSize(15)
  @IsString({ each: true })
  event_patterns!: string[];

  @ApiPropertyOptional({ enum: WEBHOOK_STATUSES })
  @Omittable()
  @IsIn(WEBHOOK_STATUSES)
  status?: WebhookSubscriptionStatus;
}

export class WebhookSubscriptionUpdateRequestDto {
  @ApiPropertyOptional()
  @Omittable()
  @IsString()
  @NotBlank()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional()
  @Omittable()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ type: [String] })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(15)
  @IsString({ each: true })
  event_patterns?: string[];

  @ApiPropertyOptional({ enum: WEBHOOK_STATUSES })
  @Omittable()
  @IsIn(WEBHOOK_STATUSES)
  status?: WebhookSubscriptionStatus;
}
