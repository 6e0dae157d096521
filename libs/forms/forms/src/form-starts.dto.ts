import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { draftPart, FormSummaryDto } from './responses.dto';
import type { StarterTemplate } from './starter-templates';
import type { WorkspacePlan, WorkspaceRole } from './workspace-roles';

export class WorkspaceDto {
  @ApiProperty({ example: 'wrk_01JZ79Y7YJ9Y2VD8QSE2RC1D8Q' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['owner', 'editor', 'viewer'], description: "The key owner's role there." }) role!: WorkspaceRole;
  @ApiProperty({ enum: ['free', 'pro', 'business'] }) plan!: WorkspacePlan;
  @ApiProperty({ description: 'Whether the role allows creating and editing forms (owner or editor).' }) canCreateForms!: boolean;
}

export class WorkspaceListDto {
  @ApiProperty({ type: [WorkspaceDto], description: "The workspaces the key's owner belongs to, oldest membership first." })
  workspaces!: WorkspaceDto[];

  @ApiProperty({ type: String, nullable: true, description: 'The first workspace the owner belongs to; null when none.' })
  defaultWorkspaceId!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Where to create forms without asking: the only workspace where the owner can create; null when none or several (ask the user).',
  })
  recommendedCreateWorkspaceId!: string | null;
}

export class DraftIssueDto {
  @ApiProperty({ description: 'Where in the draft, e.g. `steps[0].fields[1].label`.' }) path!: string;
  @ApiProperty() code!: string;
  @ApiProperty() message!: string;
}

export class ValidationReportDto {
  @ApiProperty({ description: 'Whether the draft can be published as it is.' }) valid!: boolean;
  @ApiProperty({ type: [DraftIssueDto] }) issues!: DraftIssueDto[];
}

export class DraftValidationDto {
  @ApiProperty() formId!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The revision that was checked; publish with it.' }) draftRevision!: number;
  @ApiProperty({ type: ValidationReportDto }) validation!: ValidationReportDto;
}

export class StarterTemplateDto implements StarterTemplate {
  @ApiProperty({ example: 'lead_capture' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: ['marketing', 'feedback', 'events', 'hiring', 'quiz'] }) category!: StarterTemplate['category'];
  @draftPart('DraftSchemaInput', { description: 'The draft a form made from it starts with.' }) draftSchema!: Record<string, unknown>;
}

export class StarterTemplateListDto {
  @ApiProperty({ type: [StarterTemplateDto] }) data!: StarterTemplateDto[];
}

/** Where a new form made from a template or a copy goes, and its title. */
export class NewFormPlacementDto {
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

  @ApiPropertyOptional({ maxLength: 500, description: "The new form's title (default: the template's name, or the original's title + “(copy)”)." })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  title?: string;
}

export const CREATION_STATUSES = ['created', 'in_progress', 'deleted', 'unknown'] as const;

export class CreateFormStatusDto {
  @ApiProperty() idempotencyKey!: string;

  @ApiProperty({
    enum: CREATION_STATUSES,
    description:
      'created: the key made `form`; in_progress: that request is still running; deleted: it made a form that was deleted since (or that you can no longer reach); unknown: no creation is recorded for the key (never used, refused, or older than 24 hours): creating again is safe.',
  })
  status!: (typeof CREATION_STATUSES)[number];

  @ApiProperty({ type: FormSummaryDto, nullable: true, description: 'The form as it is now, when the key created it and it still exists.' })
  form!: FormSummaryDto | null;
}
