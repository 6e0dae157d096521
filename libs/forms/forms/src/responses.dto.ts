import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  draftComponentRef,
  type DraftComponentName,
  type DraftSchema,
  type Field,
  type Position,
  type Step,
  type StepLogic,
  type Theme,
} from '@forms/draft-schema';
import { FORM_STATUSES, type FormDetail, type FormSummary } from './form-view';

/** A property holding one of the draft schema's published components (generated from its zod models). */
export const draftPart = (name: DraftComponentName, options: { nullable?: boolean; description?: string; required?: boolean } = {}) =>
  ApiProperty({ allOf: [{ $ref: draftComponentRef(name) }], ...options });

const revisionOptions = { type: 'integer', minimum: 0, description: 'The draft revision after this write; send it with your next change.' } as const;
const updatedAtOptions = { type: 'integer', description: 'When the draft last changed, in Unix seconds.' } as const;

export class FormSummaryDto implements FormSummary {
  @ApiProperty({ example: 'frm_01JZ7A2E0M8Q1W9B5XK4J0R8YH' }) id!: string;
  @ApiProperty({ example: 'wrk_01JZ79Y7YJ9Y2VD8QSE2RC1D8Q' }) workspace_id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: FORM_STATUSES }) status!: FormSummary['status'];
  @ApiProperty(updatedAtOptions) draft_updated_at!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Starts at 0; every draft write adds one.' }) draft_revision!: number;
  @ApiProperty({ type: 'integer', minimum: 0, description: '0 until the first publish.' }) published_version!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) published_at!: string | null;
  @ApiProperty({ description: 'Names the hosted form in its URL; assigned at creation.' }) public_id!: string;
  @ApiProperty({ format: 'uri', description: 'Where respondents fill in the published form.' }) public_url!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) responses_count!: number;
}

export class FormDetailDto implements FormDetail {
  @ApiProperty({ type: FormSummaryDto }) data!: FormSummaryDto;
  @draftPart('DraftSchema', { description: 'The current draft.' }) draft_schema!: DraftSchema;
  @draftPart('DraftSchema', { nullable: true, description: 'The latest published version; null before the first publish.' })
  published_schema!: DraftSchema | null;
}

export class FormListDto {
  @ApiProperty({ type: [FormSummaryDto] }) data!: FormSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Always null: the list is not paged.' }) next_cursor!: null;
}

/** PATCH answers with the revision fields only when it saved a new draft. */
export class UpdatedFormDto extends FormDetailDto {
  @ApiPropertyOptional(revisionOptions) draft_revision?: number;
  @ApiPropertyOptional(updatedAtOptions) draft_updated_at?: number;
}

export class RevisedFormDto extends FormDetailDto {
  @ApiProperty(revisionOptions) draft_revision!: number;
  @ApiProperty(updatedAtOptions) draft_updated_at!: number;
}

export class PublishedFormDto extends FormDetailDto {
  @ApiProperty({ format: 'date-time' }) published_at!: string;
  @ApiProperty({ format: 'uri' }) public_url!: string;
}

export class DeletedFormDto {
  @ApiProperty({ type: 'boolean', enum: [true] }) ok!: true;
  @ApiProperty() id!: string;
}

export class PositionDto implements Position {
  @ApiProperty() id!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) position!: number;
}

/** The revision fields every draft edit answers with. */
export class DraftRevisionDto {
  @ApiProperty(revisionOptions) draft_revision!: number;
  @ApiProperty(updatedAtOptions) draft_updated_at!: number;
}

export class StepEditDto extends DraftRevisionDto {
  @draftPart('Step') step!: Step;
}

export class MovedStepDto extends StepEditDto {
  @ApiProperty({ type: [PositionDto], description: 'Every step in its new order.' }) steps!: PositionDto[];
}

export class StepOrderDto extends DraftRevisionDto {
  @ApiProperty({ type: [PositionDto] }) steps!: PositionDto[];
}

export class DeletedStepDto extends DraftRevisionDto {
  @ApiProperty({ type: 'boolean', enum: [true] }) ok!: true;
  @ApiProperty() deleted_step_id!: string;
}

export class FieldEditDto extends DraftRevisionDto {
  @draftPart('Field') field!: Field;
}

export class FieldOrderDto extends DraftRevisionDto {
  @ApiProperty({ type: [PositionDto] }) fields!: PositionDto[];
}

export class DeletedFieldDto extends DraftRevisionDto {
  @ApiProperty({ type: 'boolean', enum: [true] }) ok!: true;
  @ApiProperty() deleted_field_id!: string;
}

export class StepLogicEditDto extends DraftRevisionDto {
  @draftPart('StepLogic') logic!: StepLogic;
}

export class DesignEditDto extends DraftRevisionDto {
  @draftPart('Theme') theme!: Theme;
}
