import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, ApiSchemaOptions, getSchemaPath } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsString, MaxLength } from 'class-validator';
import { ClosedObject, NotBlank, Omittable } from '@shared/errors';
import { Pagination } from '@shared/pagination';
import { DELIVERY_PROVIDERS, type DeliveryProviderName } from '../providers/provider-settings';

export const SETUP_PURPOSES = ['create', 'replace_credentials'] as const;
export type SetupPurpose = (typeof SETUP_PURPOSES)[number];
export const SETUP_STATUSES = ['pending', 'completed', 'failed', 'expired'] as const;
export type SetupStatus = (typeof SETUP_STATUSES)[number];
export const SECURE_MODES = ['starttls', 'tls', 'none'] as const;

/** The secret-free settings: plain values, and `has_*` saying only whether a secret is stored. */
@ApiSchema({ additionalProperties: false } as ApiSchemaOptions)
export class ProviderPublicConfigDto {
  @ApiPropertyOptional() region?: string;
  @ApiPropertyOptional() access_key_id?: string;
  @ApiPropertyOptional() has_secret_access_key?: boolean;
  @ApiPropertyOptional() has_server_token?: boolean;
  @ApiPropertyOptional() has_account_token?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true }) message_stream?: string | null;
  @ApiPropertyOptional() has_api_key?: boolean;
  @ApiPropertyOptional() domain?: string;
  @ApiPropertyOptional() host?: string;
  @ApiPropertyOptional({ type: 'integer' }) port?: number;
  @ApiPropertyOptional({ enum: SECURE_MODES }) secure_mode?: (typeof SECURE_MODES)[number];
  @ApiPropertyOptional() username?: string;
  @ApiPropertyOptional() has_password?: boolean;
}

@ApiExtraModels(ProviderPublicConfigDto)
@ApiSchema({ additionalProperties: false } as ApiSchemaOptions)
export class ConnectionDto {
  @ApiProperty({ example: '/v1/email-delivery-connections/edc_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: DELIVERY_PROVIDERS }) provider!: DeliveryProviderName;
  @ApiProperty({ format: 'email' }) from_email!: string;
  @ApiProperty() from_name!: string;
  @ApiProperty() enabled!: boolean;
  // OpenAPI 3.0 has no null type: `nullable` stands for the contract's `{type: null}` branch.
  @ApiProperty({ allOf: [{ $ref: getSchemaPath(ProviderPublicConfigDto) }], nullable: true }) provider_config!: ProviderPublicConfigDto | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class ConnectionResponseDto {
  @ApiProperty({ type: ConnectionDto }) data!: ConnectionDto;
}

export class ConnectionListDto {
  @ApiProperty({ type: [ConnectionDto] }) data!: ConnectionDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

@ApiSchema({ additionalProperties: false } as ApiSchemaOptions)
export class SetupSessionDto {
  @ApiProperty({ example: '/v1/email-delivery-connection-setup-sessions/eds_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ enum: SETUP_PURPOSES }) purpose!: SetupPurpose;
  @ApiProperty({ enum: SETUP_STATUSES }) status!: SetupStatus;
  @ApiPropertyOptional({ format: 'uri', description: 'The browser link, in the create and renew responses only.' }) setup_url?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) connection_id?: string | null;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) completed_at?: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) failed_at?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, enum: ['setup_action_failed', null] }) failure_code?: 'setup_action_failed' | null;
}

export class SetupSessionResponseDto {
  @ApiProperty({ type: SetupSessionDto }) data!: SetupSessionDto;
}

/** A connection's name and sender, as a setup request and an update both take them (each optional). */
class ConnectionNamingFields {
  @ApiPropertyOptional()
  @Omittable()
  @IsString()
  @NotBlank()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ format: 'email' })
  @Omittable()
  @IsString()
  @IsEmail()
  @MaxLength(254)
  from_email?: string;

  @ApiPropertyOptional()
  @Omittable()
  @IsString()
  @NotBlank()
  @MaxLength(255)
  from_name?: string;
}

/** Defaults for the browser page; never a secret. What each purpose needs is checked by the use case, naming the field. */
@ClosedObject()
export class SetupRequestDto extends ConnectionNamingFields {
  @ApiPropertyOptional({ enum: SETUP_PURPOSES, default: 'create' })
  @Omittable()
  @IsIn(SETUP_PURPOSES)
  purpose?: SetupPurpose;

  @ApiPropertyOptional()
  @Omittable()
  @IsString()
  @NotBlank()
  @MaxLength(100)
  connection_id?: string;

  @ApiPropertyOptional({ enum: DELIVERY_PROVIDERS })
  @Omittable()
  @IsIn(DELIVERY_PROVIDERS)
  provider?: DeliveryProviderName;
}

/** At least one property: an empty update is refused as `empty_update`. */
@ClosedObject({ minProperties: 1 })
export class ConnectionUpdateRequestDto extends ConnectionNamingFields {}

@ClosedObject()
export class ConnectionStatusRequestDto {
  @ApiProperty()
  @IsBoolean()
  enabled!: boolean;
}

@ClosedObject()
export class ConnectionTestRequestDto {
  @ApiProperty({ format: 'email' })
  @IsString()
  @IsEmail()
  @MaxLength(254)
  to!: string;
}

export const VERIFICATION_STATUSES = ['verified', 'send_test_required'] as const;
export const INSPECTION_STATUSES = ['available', 'unavailable'] as const;

export class ConnectionVerificationDto {
  @ApiProperty() connection_id!: string;
  @ApiProperty({ enum: VERIFICATION_STATUSES }) verification_status!: (typeof VERIFICATION_STATUSES)[number];
  @ApiProperty({ enum: INSPECTION_STATUSES }) inspection_status!: (typeof INSPECTION_STATUSES)[number];
  @ApiProperty() message!: string;
  @ApiProperty({ format: 'date-time' }) verified_at!: string;
}

export class ConnectionVerificationResponseDto {
  @ApiProperty({ type: ConnectionVerificationDto }) data!: ConnectionVerificationDto;
}

export class ConnectionTestResultDto {
  @ApiProperty() connection_id!: string;
  @ApiProperty({ format: 'email' }) recipient!: string;
  @ApiProperty({ enum: ['sent'] }) status!: 'sent';
  @ApiProperty({ format: 'date-time' }) sent_at!: string;
}

export class ConnectionTestResultResponseDto {
  @ApiProperty({ type: ConnectionTestResultDto }) data!: ConnectionTestResultDto;
}
