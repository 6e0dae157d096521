import { ApiProperty } from '@nestjs/swagger';

/** Version metadata and discovery links (served unwrapped by GET /v1). */
export class ApiMetadataDto {
  @ApiProperty({ example: 'v1' }) version!: string;
  @ApiProperty() documentation_url!: string;
  @ApiProperty() reference_url!: string;
  @ApiProperty() agents_url!: string;
  @ApiProperty() sdk_docs_url!: string;
  @ApiProperty() typescript_sdk_url!: string;
  @ApiProperty() python_sdk_url!: string;
  @ApiProperty() mcp_docs_url!: string;
  @ApiProperty() mcp_url!: string;
  @ApiProperty() llms_url!: string;
  @ApiProperty() llms_full_url!: string;
  @ApiProperty() openapi_url!: string;
  @ApiProperty() capabilities_url!: string;
  @ApiProperty() webhook_subscriptions_url!: string;
  @ApiProperty() oauth_authorization_server_url!: string;
}
