import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { NotBlank, Omittable } from '@shared/errors';
import { draftComponentRef } from '@forms/draft-schema';
import { draftPart } from './responses.dto';

const draftSchemaInput = (description: string, required = false) => draftPart('DraftSchemaInput', { description, required });

/** `draft_revision` and `force`, accepted by every draft write. */
export class RevisionGuardDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'The revision your change is based on; a stale one is rejected with 409.' })
  @Omittable()
  @IsInt()
  @Min(0)
  draft_revision?: number;

  @ApiPropertyOptional({ description: 'Skip the revision check and write over the current draft.' })
  @Omittable()
  @IsBoolean()
  force?: boolean;
}

export class CreateFormDto {
  @ApiPropertyOptional({ description: 'Workspace to create in; needed when you can create in several.' })
  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(64)
  workspaceId?: string;

  @ApiPropertyOptional({ description: 'Alias of workspaceId.' })
  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(64)
  workspace_id?: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  title?: string;

  @draftSchemaInput('The first draft; `settings.name` becomes the title. Without it the form starts with one empty step.')
  @IsOptional()
  @IsObject()
  draftSchema?: Record<string, unknown>;
}

export class ListFormsQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @IsString()
  limit?: string;

  @ApiPropertyOptional({ description: 'Only the forms of this workspace.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  workspaceId?: string;

  @ApiPropertyOptional({ description: 'Alias of workspaceId.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  workspace_id?: string;
}

export class UpdateFormDto extends RevisionGuardDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @Omittable()
  @IsString()
  @MaxLength(500)
  title?: string;

  @draftSchemaInput('Saved as the new draft.')
  @Omittable()
  @IsObject()
  draftSchema?: Record<string, unknown>;
}

export class ReplaceDraftDto extends RevisionGuardDto {
  @draftSchemaInput('The whole new draft.', true)
  @IsObject()
  draftSchema!: Record<string, unknown>;
}

export class PublishFormDto extends RevisionGuardDto {
  @draftSchemaInput('Saved as the draft first, then published.')
  @Omittable()
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
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Zero-based index the step moves to.' })
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
  @ApiProperty({ type: 'array', items: { $ref: draftComponentRef('StepRuleInput') }, description: "The step's rules, in order; an empty list removes them." })
  @IsArray()
  rules!: unknown[];

  @ApiPropertyOptional({
    allOf: [{ $ref: draftComponentRef('TargetInput') }],
    nullable: true,
    description: 'Where the step leads when no rule with a target holds; null or absent removes the fallback.',
  })
  @IsOptional()
  fallbackTarget?: unknown;
}

export class DesignDto extends RevisionGuardDto {
  @draftPart('ThemePatch', { description: 'Merged into the draft theme.' })
  @IsObject()
  theme!: Record<string, unknown>;
}

/** The members an added step or field may carry beside its own properties (read by `splitEditBody`). */
export class InsertPositionDto extends RevisionGuardDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Zero-based index to insert at; appended when absent.' })
  position?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Alias of position.' })
  index?: number;
}
