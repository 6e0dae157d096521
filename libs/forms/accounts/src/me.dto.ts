import { ApiProperty } from '@nestjs/swagger';

export class MeOwnerDto {
  @ApiProperty() id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() username!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Currently always null.' }) preferred_workspace!: string | null;
}

export class MeApiKeyDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() prefix!: string;
  @ApiProperty() last4!: string;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_used_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revoked_at!: string | null;
}

export class MeDto {
  @ApiProperty({ type: MeOwnerDto }) owner!: MeOwnerDto;
  @ApiProperty({ type: MeApiKeyDto }) api_key!: MeApiKeyDto;
}
