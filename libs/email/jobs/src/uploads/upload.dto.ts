import { ApiProperty } from '@nestjs/swagger';

export const UPLOAD_STATUSES = ['Pending', 'Ready', 'Queued'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

export class SubscriberImportUploadDto {
  @ApiProperty({ example: '/v1/jobs/subscriber-import-uploads/imu_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty({ enum: UPLOAD_STATUSES }) status!: UploadStatus;
  @ApiProperty({ type: String, format: 'uri', nullable: true, description: 'The one-time browser page; only in the create response.' })
  upload_url!: string | null;
  @ApiProperty({ type: String, nullable: true }) file_name!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) size_bytes!: number | null;
  @ApiProperty({ type: [String], maxItems: 250, items: { type: 'string', maxLength: 200 } }) headers!: string[];
  @ApiProperty({ type: 'integer', nullable: true }) row_count!: number | null;
  @ApiProperty({ type: String, nullable: true }) import_job_id!: string | null;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) uploaded_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) queued_at!: string | null;
}

export class SubscriberImportUploadResponseDto {
  @ApiProperty({ type: SubscriberImportUploadDto }) data!: SubscriberImportUploadDto;
}
