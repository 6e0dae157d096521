import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { ClosedObject } from '@shared/errors';
import { Pagination } from '@shared/pagination';
import { AUDIENCE_FIELDS, AUDIENCE_MATCHES, AUDIENCE_OPERATORS, type AudienceDefinition } from '../audience-definition';

// The definition's shape, for the document only: parseAudienceDefinition validates it and names the failing path.
@ClosedObject()
export class AudienceConditionDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: AUDIENCE_FIELDS }) field!: string;
  @ApiProperty({ enum: AUDIENCE_OPERATORS }) operator!: string;
  // OpenAPI 3.0 has no null type: `nullable` stands for the contract's `{type: null}` branch.
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }],
    nullable: true,
  })
  value?: unknown;
  @ApiPropertyOptional({ type: String, nullable: true }) customFieldId?: string | null;
}

@ClosedObject()
export class AudienceConditionGroupDto {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: AUDIENCE_MATCHES }) match!: string;
  @ApiProperty({ type: [AudienceConditionDto], minItems: 1 }) conditions!: AudienceConditionDto[];
}

@ClosedObject()
export class AudienceDefinitionDto {
  @ApiProperty({ enum: AUDIENCE_MATCHES }) match!: string;
  @ApiProperty({ type: [AudienceConditionGroupDto] }) groups!: AudienceConditionGroupDto[];
}

const definitionRef = { allOf: [{ $ref: getSchemaPath(AudienceDefinitionDto) }] };

@ClosedObject()
export class SegmentSummaryDto {
  @ApiProperty({ example: '/v1/segments/seg_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Active subscribers matching, as of the last count.' }) confirmed_subscriber_count!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Matching subscribers of any status, as of the last count.' }) total_subscriber_count!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

@ApiExtraModels(AudienceDefinitionDto)
export class SegmentDto {
  @ApiProperty({ example: '/v1/segments/seg_01J…' }) self!: string;
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: AudienceDefinitionDto }) definition!: AudienceDefinition;
  @ApiProperty({ type: 'integer' }) confirmed_subscriber_count!: number;
  @ApiProperty({ type: 'integer' }) total_subscriber_count!: number;
  @ApiPropertyOptional({ format: 'date-time', description: 'When the two counts were taken (they are counted fresh for this response).' })
  counts_refreshed_at?: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class SegmentResponseDto {
  @ApiProperty({ type: SegmentDto }) data!: SegmentDto;
}

export class SegmentListDto {
  @ApiProperty({ type: [SegmentSummaryDto] }) data!: SegmentSummaryDto[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

export class SegmentPreviewDto {
  @ApiProperty({ type: 'integer' }) confirmed_subscriber_count!: number;
  @ApiProperty({ type: 'integer' }) total_subscriber_count!: number;
}

export class SegmentPreviewResponseDto {
  @ApiProperty({ type: SegmentPreviewDto }) data!: SegmentPreviewDto;
}

@ClosedObject()
@ApiExtraModels(AudienceDefinitionDto)
export class SegmentUpsertRequestDto {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @Matches(/\S/, { message: 'name must not be blank' })
  @MaxLength(255)
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiProperty(definitionRef)
  @IsDefined()
  definition!: unknown;
}

/** At least one property: an empty update is refused as `empty_update` by SegmentService. */
@ClosedObject({ minProperties: 1 })
@ApiExtraModels(AudienceDefinitionDto)
export class SegmentUpdateRequestDto {
  @ApiPropertyOptional({ maxLength: 255 })
  @ValidateIf((_, value) => value !== undefined)
  @IsString()
  @Matches(/\S/, { message: 'name must not be blank' })
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional(definitionRef)
  @ValidateIf((_, value) => value !== undefined)
  @IsDefined()
  definition?: unknown;
}

@ApiExtraModels(AudienceDefinitionDto)
export class SegmentPreviewRequestDto {
  @ApiProperty(definitionRef)
  @IsDefined()
  definition!: unknown;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'The segment being edited, so a definition that leads back to it is refused.' })
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  current_segment_id?: string | null;
}
