import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { NotBlank, Omittable } from '@shared/errors';
import { Pagination } from '@shared/pagination';

export const MAPPING_FIELD_TYPES = ['email', 'name', 'custom-field', 'country', 'subscriber-status'] as const;
export type MappingFieldType = (typeof MAPPING_FIELD_TYPES)[number];
export const IMPORT_JOB_STATUSES = ['Queued', 'Processing', 'Completed', 'Failed'] as const;
export type ImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number];

export class SubscriberImportMappingFieldDto {
  @ApiProperty({ enum: MAPPING_FIELD_TYPES })
  @IsIn(MAPPING_FIELD_TYPES)
  type!: MappingFieldType;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  custom_field_id?: string | null;
}

export class SubscriberImportMappingDto {
  @ApiProperty()
  @IsString()
  @MaxLength(200)
  csv_column!: string;

  @ApiProperty({ type: SubscriberImportMappingFieldDto })
  @IsObject()
  @ValidateNested()
  @Type(() => SubscriberImportMappingFieldDto)
  field!: SubscriberImportMappingFieldDto;
}

export class SubscriberImportJobCreateRequestDto {
  @ApiProperty()
  @IsString()
  @NotBlank()
  upload_id!: string;

  @ApiProperty({ type: [SubscriberImportMappingDto] })
  @IsArray()
  @ArrayMaxSize(250)
  @ValidateNested({ each: true })
  @Type(() => SubscriberImportMappingDto)
  mappings!: SubscriberImportMappingDto[];

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(255)
  new_tag_name?: string | null;

  @ApiPropertyOptional({ type: [String] })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  existing_tag_ids?: string[];

  @ApiPropertyOptional({ type: [String] })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  sequence_ids?: string[];
}

export class SubscriberImportJobDto {
  @ApiProperty({ example: '/v1/jobs/subscriber-imports/imp_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ enum: IMPORT_JOB_STATUSES }) status!: ImportJobStatus;
  @ApiProperty({ type: 'integer', nullable: true }) imported_count!: number | null;
  @ApiProperty({ type: String, nullable: true }) error_message!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class SubscriberImportJobSummaryDto {
  @ApiProperty({ example: '/v1/jobs/subscriber-imports/imp_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ enum: IMPORT_JOB_STATUSES }) status!: ImportJobStatus;
  @ApiProperty({ type: 'integer', nullable: true }) imported_count!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class SubscriberImportJobResponseDto {
  @ApiProperty({ type: SubscriberImportJobDto }) data!: SubscriberImportJobDto;
}

export class SubscriberImportJobListDto {
  @ApiProperty({ type: [SubscriberImportJobSummaryDto] }) data!: SubscriberImportJobSummaryDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

/** Our extension: one rejected row of an import or a dry run. */
export class SubscriberImportRejectedRowDto {
  @ApiProperty({ type: 'integer', description: '1 is the first row after the header row.' }) row_number!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The CSV column at fault; null when the row as a whole was refused.' })
  csv_column!: string | null;
  @ApiProperty() code!: string;
  @ApiProperty() reason!: string;
}

/** Our extension: what an import (or a dry run) did, or would do, row by row. */
export class SubscriberImportResultsDto {
  @ApiProperty() job_id!: string;
  @ApiProperty({ description: 'True for a dry run: nothing was written.' }) dry_run!: boolean;
  @ApiProperty({ enum: IMPORT_JOB_STATUSES }) status!: ImportJobStatus;
  @ApiProperty({ type: 'integer' }) processed_rows!: number;
  @ApiProperty({ type: 'integer' }) created_count!: number;
  @ApiProperty({ type: 'integer' }) updated_count!: number;
  @ApiProperty({ type: 'integer' }) unchanged_count!: number;
  @ApiProperty({ type: 'integer' }) rejected_count!: number;
  @ApiProperty({ type: 'integer', description: 'Rows whose email an earlier row of the file also had; the last such row wins.' })
  duplicate_count!: number;
  @ApiProperty({ type: [SubscriberImportRejectedRowDto], description: 'A page of the rejected rows, in row order.' })
  rejected_rows!: SubscriberImportRejectedRowDto[];
}

export class SubscriberImportResultsResponseDto {
  @ApiProperty({ type: SubscriberImportResultsDto }) data!: SubscriberImportResultsDto;
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}
