import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { ClosedObject, NotBlank, Omittable } from '@shared/errors';
import { Pagination } from '@shared/pagination';

export const GDPR_PURPOSES = ['email_marketing', 'ads_personalization'] as const;

export class TagDto {
  @ApiProperty({ example: '/v1/tags/tag_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ enum: GDPR_PURPOSES, nullable: true, description: 'Set for the GDPR consent tags; read-only.' })
  gdpr_consent_purpose!: (typeof GDPR_PURPOSES)[number] | null;
  @ApiProperty({ type: 'integer' }) subscriber_count!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class TagResponseDto {
  @ApiProperty({ type: TagDto }) data!: TagDto;
}

export class TagListDto {
  @ApiProperty({ type: [TagDto] }) data!: TagDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

@ClosedObject()
export class TagCreateRequestDto {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @NotBlank()
  @MaxLength(255)
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
}

/** At least one property: an empty update is refused as `empty_update` by TagService. */
@ClosedObject({ minProperties: 1 })
export class TagUpdateRequestDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @Omittable()
  @IsString()
  @NotBlank()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;
}
