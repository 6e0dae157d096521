import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { RUN_PHASES } from '../core/run-states';

const nullableText = { type: String, nullable: true };
const nullableDateTime = { type: String, format: 'date-time', nullable: true };

export class PreflightConnectionDto {
  @ApiProperty({ description: 'Empty when the broadcast has no connection.' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() provider!: string;
}

export class SendingQuotaDto {
  @ApiProperty({ type: 'integer', minimum: 0 }) remaining!: number;
  @ApiProperty({ type: 'integer', minimum: 1 }) limit!: number;
  @ApiProperty({ enum: ['rolling-24-hours', 'day', 'month'] }) period!: string;
}

export class BlockingIssueDto {
  @ApiProperty({ description: 'Stable: one of the broadcast_* blocking codes.' }) code!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ description: 'What to do about it.' }) resolution!: string;
}

export class BroadcastSendPreflightDto {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() broadcast_id!: string;
  @ApiProperty() subject!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Active subscribers matching the audience now (the exact count the send starts from).' })
  recipient_estimate!: number;
  @ApiProperty({ type: PreflightConnectionDto }) connection!: PreflightConnectionDto;
  @ApiProperty({ enum: ['production', 'restricted', 'unknown'] }) provider_production_status!: string;
  @ApiProperty({ type: 'integer', minimum: 0, nullable: true }) remaining_daily_quota!: number | null;
  @ApiProperty({ type: SendingQuotaDto, nullable: true }) sending_quota!: SendingQuotaDto | null;
  @ApiProperty({ type: Number, minimum: 0, exclusiveMinimum: true, nullable: true }) safe_send_rate!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0, nullable: true }) estimated_duration_seconds!: number | null;
  @ApiProperty({ enum: ['verified', 'unverified', 'unknown'] }) sender_authentication_status!: string;
  @ApiProperty({ enum: ['healthy', 'unknown'] }) event_webhook_health!: string;
  @ApiProperty({ type: [BlockingIssueDto] }) blocking_issues!: BlockingIssueDto[];
  @ApiProperty({ type: String, format: 'date-time' }) checked_at!: string;
  @ApiProperty({ ...nullableText, description: 'Pass it as preflight_proof to send without repeating the checks; null when blocked.' })
  send_proof!: string | null;
  @ApiProperty(nullableDateTime) send_proof_expires_at!: string | null;
}

export class BroadcastSendPreflightResponseDto {
  @ApiProperty({ type: BroadcastSendPreflightDto }) data!: BroadcastSendPreflightDto;
}

export class BroadcastSendProgressDto {
  @ApiProperty() run_id!: string;
  @ApiProperty({ enum: RUN_PHASES }) phase!: string;
  @ApiProperty({ type: 'integer', description: 'Recipients the send selected (the exact total once preparation finished).' }) selected!: number;
  @ApiProperty({ type: 'integer', description: 'Deliveries prepared so far.' }) materialized!: number;
  @ApiProperty({ type: 'integer', description: 'Deliveries tried with a final outcome: accepted, permanently failed or unknown.' }) sent!: number;
  @ApiProperty({ type: 'integer' }) accepted!: number;
  @ApiProperty({ type: 'integer', description: 'Recipients no longer sendable when their turn came.' }) skipped!: number;
  @ApiProperty({ type: 'integer' }) retrying!: number;
  @ApiProperty({ type: 'integer' }) permanent_failed!: number;
  @ApiProperty({ type: 'integer', description: 'Outcome unprovable; never retried automatically.' }) unknown!: number;
  @ApiProperty({ type: 'integer' }) canceled!: number;
  @ApiProperty({ type: Number }) percent_complete!: number;
  @ApiProperty({ type: Number, description: 'Messages per second since sending started.' }) effective_rate!: number;
  @ApiProperty({ type: Number, nullable: true }) provider_limited_rate!: number | null;
  @ApiProperty(nullableText) provider!: string | null;
  @ApiProperty(nullableDateTime) estimated_completion!: string | null;
  @ApiProperty({ enum: ['current-rate', 'provider-quota'], nullable: true }) estimated_completion_basis!: string | null;
  @ApiProperty(nullableDateTime) last_progress_at!: string | null;
  @ApiProperty(nullableText) pause_reason!: string | null;
  @ApiProperty(nullableDateTime) next_retry_at!: string | null;
  @ApiProperty({ enum: ['resume', 'recheck'], nullable: true }) next_retry_action!: string | null;
  @ApiProperty(nullableText) pause_message!: string | null;
  @ApiProperty({ description: 'Poll until true.' }) terminal!: boolean;
}

export class BroadcastSendProgressResponseDto {
  @ApiProperty({ type: BroadcastSendProgressDto }) data!: BroadcastSendProgressDto;
}

export class BroadcastDeliveryErrorDto {
  @ApiProperty({ type: 'integer', minimum: 1 }) id!: number;
  @ApiProperty() subscriber_id!: string;
  @ApiProperty({ enum: ['failed', 'unknown'] }) outcome!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) attempt_count!: number;
  @ApiProperty({ ...nullableText, description: "The provider's or our stable reason code." }) error_code!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export class BroadcastDeliveryErrorPageDto {
  @ApiProperty({ type: [BroadcastDeliveryErrorDto] }) items!: BroadcastDeliveryErrorDto[];
  @ApiProperty({ type: 'integer', nullable: true, description: 'Pass as cursor for the next page; null on the last.' }) next_cursor!: number | null;
}

export class BroadcastDeliveryErrorsResponseDto {
  @ApiProperty({ type: BroadcastDeliveryErrorPageDto }) data!: BroadcastDeliveryErrorPageDto;
}

export class DeliveryErrorsQueryDto {
  // Documented as the integers they are; read as the query strings they arrive as, so the service names them in its 400.
  @ApiPropertyOptional({ type: 'integer', description: 'The last id of the previous page.' })
  @IsOptional()
  @IsString()
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'Rows per page; 25 when absent.' })
  @IsOptional()
  @IsString()
  limit?: string;
}
