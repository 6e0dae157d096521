import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ClosedObject, NotBlank, Omittable } from '@shared/errors';
import { Pagination } from '@shared/pagination';
import { CUSTOM_FIELD_TYPES, CustomFieldTypeName } from './custom-field-types';

@ClosedObject()
export class CustomFieldSettingsDto {
  @ApiPropertyOptional({ type: [String], description: 'Choices of select types.' })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(500)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  @MaxLength(255, { each: true })
  options?: string[];
}

/** The saved settings: `options` is always there, empty for types without choices. */
export class CustomFieldSavedSettingsDto {
  @ApiProperty({ type: [String] }) options!: string[];
}

export class CustomFieldDto {
  @ApiProperty({ example: '/v1/custom-fields/cf_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: String, description: `One of: ${CUSTOM_FIELD_TYPES.join(', ')}.` }) type!: CustomFieldTypeName;
  @ApiProperty({ type: CustomFieldSavedSettingsDto }) settings!: CustomFieldSavedSettingsDto;
  @ApiProperty({ description: 'Ready-to-use token computed from the current label.' }) personalization_token!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class CustomFieldResponseDto {
  @ApiProperty({ type: CustomFieldDto }) data!: CustomFieldDto;
}

export class CustomFieldListDto {
  @ApiProperty({ type: [CustomFieldDto] }) data!: CustomFieldDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

@ClosedObject()
export class CustomFieldUpsertRequestDto {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @NotBlank()
  @MaxLength(255)
  label!: string;

  @ApiProperty({ enum: CUSTOM_FIELD_TYPES })
  @IsIn(CUSTOM_FIELD_TYPES)
  type!: CustomFieldTypeName;

  @ApiPropertyOptional({ type: CustomFieldSettingsDto })
  @Omittable()
  @IsObject()
  @ValidateNested()
  @Type(() => CustomFieldSettingsDto)
  settings?: CustomFieldSettingsDto;
}

/** At least one property: an empty update is refused as `empty_update` by CustomFieldService. */
@ClosedObject({ minProperties: 1 })
export class CustomFieldUpdateRequestDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @Omittable()
  @IsString()
  @NotBlank()
  @MaxLength(255)
  label?: string;

  @ApiPropertyOptional({ enum: CUSTOM_FIELD_TYPES })
  @Omittable()
  @IsIn(CUSTOM_FIELD_TYPES)
  type?: CustomFieldTypeName;

  @ApiPropertyOptional({ type: CustomFieldSettingsDto })
  @Omittable()
  @IsObject()
  @ValidateNested()
  @Type(() => CustomFieldSettingsDto)
  settings?: CustomFieldSettingsDto;
}
