import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { SUBSCRIBER_STATUSES, SubscriberStatusName } from '@email/audience';
import { Omittable } from '@shared/errors';
import { Pagination } from '@shared/pagination';
import { IMPORT_JOB_STATUSES, ImportJobStatus } from '../imports/import.dto';

export class SubscriberExportJobCreateRequestDto {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Only subscribers whose email or name contains this text.' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(200)
  query?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, enum: [...SUBSCRIBER_STATUSES, null] })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsIn(SUBSCRIBER_STATUSES)
  status?: SubscriberStatusName | null;

  @ApiPropertyOptional({ description: 'Only cold subscribers: subscribed over 90 days ago, with no human open and no click in the last 90 days.' })
  @Omittable()
  @IsBoolean()
  cold_only?: boolean;
}

export class SubscriberExportSelectionDto {
  @ApiProperty({ type: String, nullable: true }) query!: string | null;
  @ApiProperty({ type: String, nullable: true, enum: [...SUBSCRIBER_STATUSES, null] }) status!: SubscriberStatusName | null;
  @ApiProperty() cold_only!: boolean;
}

export class SubscriberExportJobDto {
  @ApiProperty({ example: '/v1/jobs/subscriber-exports/exp_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ enum: IMPORT_JOB_STATUSES }) status!: ImportJobStatus;
  @ApiProperty({ type: SubscriberExportSelectionDto }) selection!: SubscriberExportSelectionDto;
  @ApiProperty({ type: 'integer', nullable: true }) exported_count!: number | null;
  @ApiProperty({ type: String, nullable: true }) file_name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'A signed link to the CSV, valid until expires_at.' }) download_url!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) error_message!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class SubscriberExportJobSummaryDto {
  @ApiProperty({ example: '/v1/jobs/subscriber-exports/exp_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ enum: IMPORT_JOB_STATUSES }) status!: ImportJobStatus;
  @ApiProperty({ type: 'integer', nullable: true }) exported_count!: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) started_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class SubscriberExportJobResponseDto {
  @ApiProperty({ type: SubscriberExportJobDto }) data!: SubscriberExportJobDto;
}

export class SubscriberExportJobListDto {
  @ApiProperty({ type: [SubscriberExportJobSummaryDto] }) data!: SubscriberExportJobSummaryDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}
