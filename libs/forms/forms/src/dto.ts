import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, MaxLength, Min } from 'class-validator';

/** `draft_revision` and `force`, accepted by every draft write. */
export class RevisionGuardDto {
  @ApiPropertyOptional({ description: 'The revision your change is based on; a stale one is rejected with 409.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  draft_revision?: number;

  @ApiPropertyOptional({ description: 'Skip the revision check and write over the current draft.' })
  @IsOptional()
  @IsBoolean()
  force?: boolean;
}

export class CreateFormDto {
  @ApiPropertyOptional({ description: 'Workspace to create in; needed when you can create in several.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  workspaceId?: string;

  @ApiPropertyOptional({ description: 'Alias of workspaceId.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  workspace_id?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  title?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Builder-compatible draft schema.' })
  @IsOptional()
  @IsObject()
  draftSchema?: Record<string, unknown>;
}

export class ListFormsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @IsString()
  limit?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  workspaceId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  workspace_id?: string;
}

export class UpdateFormDto extends RevisionGuardDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  title?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  draftSchema?: Record<string, unknown>;
}

export class ReplaceDraftDto extends RevisionGuardDto {
  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  draftSchema!: Record<string, unknown>;
}

export class PublishFormDto extends RevisionGuardDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Saved as the draft first, then published.' })
  @IsOptional()
  @IsObject()
  draftSchema?: Record<string, unknown>;
}

export class ReorderStepsDto extends RevisionGuardDto {
  @ApiProperty({ type: [String], description: 'Every current step id, in the new order.' })
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  step_ids!: string[];
}

export class ReorderFieldsDto extends RevisionGuardDto {
  @ApiProperty({ type: [String], description: 'Every field id of the step, in the new order.' })
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  field_ids!: string[];
}

export class MoveStepDto extends RevisionGuardDto {
  @ApiProperty({ minimum: 0, description: 'Zero-based index the step moves to.' })
  @IsInt()
  @Min(0)
  position!: number;
}

export class MoveFieldDto extends MoveStepDto {
  @ApiPropertyOptional({ description: 'Step to move the field into; defaults to its current step.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  stepId?: string;
}

export class StepLogicDto extends RevisionGuardDto {
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } })
  @IsArray()
  rules!: unknown[];

  @ApiPropertyOptional({ description: '`end`, a step id, `thank_you:<screen_id>`, an object target, or null to remove.', nullable: true })
  @IsOptional()
  fallbackTarget?: unknown;
}

export class DesignDto extends RevisionGuardDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Merged into the draft theme.' })
  @IsObject()
  theme!: Record<string, unknown>;
}
