import { ApiProperty, ApiSchema, ApiSchemaOptions } from '@nestjs/swagger';
import { Pagination } from '@shared/pagination';

/** An enabled sender, derived from an enabled delivery connection. Never carries provider settings (nor any other key). */
// Closed, as the contract has it. A response only, so no validation reads this (@ClosedObject is for request DTOs);
// @nestjs/swagger copies every key of @ApiSchema's options into the schema, though its type names only two.
@ApiSchema({ additionalProperties: false } as ApiSchemaOptions)
export class SenderIdentityDto {
  @ApiProperty({ example: '/v1/sender-identities/edc_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The delivery provider identifier.' }) provider!: string;
  @ApiProperty() from_name!: string;
  @ApiProperty({ format: 'email' }) from_email!: string;
  @ApiProperty({ enum: [true], description: 'Always true: only selectable identities are listed.' }) ready_for_selection!: true;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class SenderIdentityResponseDto {
  @ApiProperty({ type: SenderIdentityDto }) data!: SenderIdentityDto;
}

export class SenderIdentityListDto {
  @ApiProperty({ type: [SenderIdentityDto] }) data!: SenderIdentityDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}
