import { ApiProperty, ApiPropertyOptional, ApiSchema, ApiSchemaOptions } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ClosedObject } from '@shared/errors';

/** Highest settings accepted: far above any provider's published limits, low enough to catch a typo. */
export const SEND_LIMIT_BOUNDS = { send_rate_per_second: 100_000, send_connections: 100, daily_quota: 100_000_000 } as const;

/** One set of the three limits, in API field names. */
@ApiSchema({ additionalProperties: false } as ApiSchemaOptions)
export class SendLimitValuesDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Messages per second, across every send worker.' }) send_rate_per_second!: number;
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Concurrent provider connections per send worker process.' })
  send_connections!: number;
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true, description: 'Messages per UTC day; null: no daily quota.' })
  daily_quota!: number | null;
}

/** The connection's own settings: null where it uses its provider's default. */
@ApiSchema({ additionalProperties: false } as ApiSchemaOptions)
export class SendLimitSettingsDto {
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true }) send_rate_per_second!: number | null;
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true }) send_connections!: number | null;
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true }) daily_quota!: number | null;
}

@ApiSchema({ additionalProperties: false } as ApiSchemaOptions)
export class ConnectionSendLimitsDto {
  @ApiProperty({ example: '/v1/email-delivery-connections/edc_01J…/send-limits' }) self!: string;
  @ApiProperty() connection_id!: string;
  @ApiProperty({ type: SendLimitValuesDto, description: 'What the send worker holds the connection to.' }) effective!: SendLimitValuesDto;
  @ApiProperty({ type: SendLimitSettingsDto, description: "The connection's own settings." }) settings!: SendLimitSettingsDto;
  @ApiProperty({ type: SendLimitValuesDto, description: "The provider's defaults, used where a setting is null." })
  provider_defaults!: SendLimitValuesDto;
}

export class ConnectionSendLimitsResponseDto {
  @ApiProperty({ type: ConnectionSendLimitsDto }) data!: ConnectionSendLimitsDto;
}

/** Each field optional; a number sets the connection's own limit, null returns it to the provider's default. */
@ClosedObject()
export class ConnectionSendLimitsUpdateRequestDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: SEND_LIMIT_BOUNDS.send_rate_per_second, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(SEND_LIMIT_BOUNDS.send_rate_per_second)
  send_rate_per_second?: number | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: SEND_LIMIT_BOUNDS.send_connections, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(SEND_LIMIT_BOUNDS.send_connections)
  send_connections?: number | null;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: SEND_LIMIT_BOUNDS.daily_quota, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(SEND_LIMIT_BOUNDS.daily_quota)
  daily_quota?: number | null;
}
