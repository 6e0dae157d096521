import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { Omittable } from '@shared/errors';
import { FORMS_WEBHOOK_EVENT_TYPES } from '../submission-event';

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

export class WebhookEndpointDto {
  @ApiProperty() id!: string;
  @ApiProperty() workspace_id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ enum: WEBHOOK_ENDPOINT_STATUSES }) status!: WebhookEndpointStatus;
  @ApiProperty({ type: [String], enum: FORMS_WEBHOOK_EVENT_TYPES }) events!: string[];
  @ApiProperty({ description: 'The last four characters of the signing secret.' }) signing_secret_preview!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) delivery_attempts!: number;
  @ApiProperty({ type: String, enum: ['delivered', 'failed'], nullable: true }) last_delivery_status!: 'delivered' | 'failed' | null;
  @ApiProperty({ type: String, nullable: true }) last_delivery_error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_delivered_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_failed_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class WebhookEndpointResponseDto {
  @ApiProperty({ type: WebhookEndpointDto }) data!: WebhookEndpointDto;
}

export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointDto] }) data!: WebhookEndpointDto[];
  @ApiProperty({ type: 'null' }) next_cursor!: null;
}

/** Create and rotate-secret: the endpoint and its signing secret, which is shown only here. */
export class WebhookEndpointSecretDto {
  @ApiProperty({ type: WebhookEndpointDto }) data!: WebhookEndpointDto;
  @ApiProperty({ description: 'The signing secret (`whsec_…`). Shown only here: store it now.' }) signing_secret!: string;
}

export class WebhookEndpointDeletedDto {
  @ApiProperty({ enum: [true] }) ok!: true;
  @ApiProperty() id!: string;
}

export class WebhookEndpointCreateDto {
  @ApiProperty({ description: 'A public https URL.' })
  @IsString()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({ type: [String], enum: FORMS_WEBHOOK_EVENT_TYPES })
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  events!: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_ENDPOINT_STATUSES })
  @IsOptional()
  @IsIn(WEBHOOK_ENDPOINT_STATUSES)
  status?: WebhookEndpointStatus;
}

export class WebhookEndpointUpdateDto {
  @ApiPropertyOptional()
  @Omittable()
  @IsString()
  @MaxLength(2048)
  url?: string;

  @ApiPropertyOptional({ type: [String], enum: FORMS_WEBHOOK_EVENT_TYPES })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  events?: string[];

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  description?: string | null;

  @ApiPropertyOptional({ enum: WEBHOOK_ENDPOINT_STATUSES })
  @Omittable()
  @IsIn(WEBHOOK_ENDPOINT_STATUSES)
  status?: WebhookEndpointStatus;
}
