import { ApiProperty, ApiPropertyOptional, getSchemaPath, OmitType } from '@nestjs/swagger';
import { ApiMetadataDto } from './api-metadata.dto';

export class CapabilitiesWorkspaceDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class CapabilitiesAuthenticationDto {
  @ApiProperty({ enum: ['bearer'] }) type!: 'bearer';
  @ApiProperty({ example: 'Authorization' }) header_name!: string;
  @ApiProperty({ example: 'Bearer ' }) header_value_prefix!: string;
  @ApiProperty() workspace_scoped!: boolean;
  @ApiProperty({ type: [String] }) scopes_supported!: string[];
  @ApiProperty({ type: 'array', items: { type: 'string', enum: ['workspace_api_key', 'oauth_access_token'] } })
  supported_credential_types!: string[];
}

export class ApiKeyCredentialDto {
  @ApiProperty({ enum: ['workspace_api_key'] }) type!: 'workspace_api_key';
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['active', 'expired', 'revoked', 'rotated'] }) status!: string;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty() key_preview!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) expires_at?: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) last_used_at?: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) revoked_at?: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class OAuthClientRefDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class OAuthCredentialDto {
  @ApiProperty({ enum: ['oauth_access_token'] }) type!: 'oauth_access_token';
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['active'] }) status!: string;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty() token_preview!: string;
  @ApiProperty({ type: OAuthClientRefDto }) client!: OAuthClientRefDto;
  @ApiProperty({ type: String, nullable: true }) created_by_user_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) last_authorized_by_user_id!: string | null;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) last_used_at?: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) revoked_at?: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** The discovery links of ApiMetadata, without `version` and `capabilities_url`. */
export class CapabilitiesDiscoveryDto extends OmitType(ApiMetadataDto, ['version', 'capabilities_url'] as const) {}

export class SdkDto {
  @ApiProperty() package_name!: string;
  @ApiProperty() docs_url!: string;
}

/** Each SDK entry names its own language, so the schema of each allows only that one. */
export class TypeScriptSdkDto extends SdkDto {
  @ApiProperty({ enum: ['typescript'] }) language!: 'typescript';
}

export class PythonSdkDto extends SdkDto {
  @ApiProperty({ enum: ['python'] }) language!: 'python';
}

export class PublicApiSdksDto {
  @ApiProperty({ type: TypeScriptSdkDto }) typescript!: TypeScriptSdkDto;
  @ApiProperty({ type: PythonSdkDto }) python!: PythonSdkDto;
}

export class PublicApiMcpDto {
  @ApiProperty() package_name!: string;
  @ApiProperty() docs_url!: string;
  @ApiProperty() server_url!: string;
  @ApiProperty({ enum: ['streamable_http'] }) recommended_transport!: 'streamable_http';
  @ApiProperty({ type: 'array', items: { type: 'string', enum: ['streamable_http', 'stdio'] } }) supported_transports!: string[];
  @ApiPropertyOptional({ type: [String], nullable: true, description: 'Only when called through the MCP server.' }) active_toolsets?: string[] | null;
  @ApiPropertyOptional({ type: [String], nullable: true, description: 'Only when called through the MCP server.' }) active_operation_ids?: string[] | null;
  @ApiPropertyOptional({ description: 'Only when called through the MCP server.' }) read_only?: boolean;
}

export class CapabilitiesConventionsDto {
  @ApiProperty({ enum: ['cursor'] }) pagination_type!: 'cursor';
  @ApiProperty({ example: 'limit' }) pagination_limit_param!: string;
  @ApiProperty({ example: 'starting_after' }) pagination_cursor_param!: string;
  @ApiProperty({ example: 'Idempotency-Key' }) idempotency_header!: string;
}

export class CapabilityLimitationDto {
  @ApiProperty({ example: 'email_delivery_connection_missing' }) code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ type: [String] }) affected_operation_ids!: string[];
  @ApiPropertyOptional({ format: 'uri' }) setup_url?: string;
}

export class WebhookSigningDto {
  @ApiProperty({ enum: ['hmac-sha256'] }) algorithm!: 'hmac-sha256';
  @ApiProperty() id_header!: string;
  @ApiProperty() timestamp_header!: string;
  @ApiProperty() signature_header!: string;
  @ApiProperty() signature_prefix!: string;
}

export class WebhookEventSupportDto {
  @ApiProperty() subscriptions_url!: string;
  @ApiProperty({ type: [String] }) supported_events!: string[];
  @ApiProperty({ type: [String] }) supported_event_patterns!: string[];
  @ApiProperty({ type: WebhookSigningDto }) signing!: WebhookSigningDto;
}

export class CapabilityOperationDto {
  @ApiProperty({ example: 'GET' }) method!: string;
  @ApiProperty({ example: '/v1/workspace' }) path!: string;
  @ApiProperty({ example: 'getWorkspace' }) operation_id!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ type: [String] }) required_scopes!: string[];
}

export class CapabilityResourceDto {
  @ApiProperty({ example: 'workspace' }) key!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [CapabilityOperationDto] }) operations!: CapabilityOperationDto[];
}

/** What the calling credential can do right now (`effective` mode), with discovery links and conventions. */
export class CapabilitiesDto {
  @ApiProperty({ example: 'v1' }) version!: string;
  @ApiProperty({ type: CapabilitiesWorkspaceDto }) workspace!: CapabilitiesWorkspaceDto;
  @ApiProperty({ type: CapabilitiesAuthenticationDto }) authentication!: CapabilitiesAuthenticationDto;
  @ApiProperty({ oneOf: [{ $ref: getSchemaPath(ApiKeyCredentialDto) }, { $ref: getSchemaPath(OAuthCredentialDto) }] })
  credential!: ApiKeyCredentialDto | OAuthCredentialDto;
  @ApiProperty({ type: CapabilitiesDiscoveryDto }) discovery!: CapabilitiesDiscoveryDto;
  @ApiProperty({ type: PublicApiSdksDto }) sdks!: PublicApiSdksDto;
  @ApiProperty({ type: PublicApiMcpDto }) mcp!: PublicApiMcpDto;
  @ApiProperty({ type: CapabilitiesConventionsDto }) conventions!: CapabilitiesConventionsDto;
  @ApiProperty({ enum: ['effective'] }) capability_mode!: 'effective';
  @ApiProperty({ type: [CapabilityLimitationDto] }) limitations!: CapabilityLimitationDto[];
  @ApiProperty({ type: WebhookEventSupportDto }) events!: WebhookEventSupportDto;
  @ApiProperty({ type: [CapabilityResourceDto] }) resources!: CapabilityResourceDto[];
}

export class CapabilitiesResponseDto {
  @ApiProperty({ type: CapabilitiesDto }) data!: CapabilitiesDto;
}

/** Models referenced only through `oneOf` (register them with @ApiExtraModels on the controller). */
export const CAPABILITIES_EXTRA_MODELS = [ApiKeyCredentialDto, OAuthCredentialDto];
