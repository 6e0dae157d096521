import { Injectable } from '@nestjs/common';
import type { Principal } from '@shared/auth';
import { FormsErrors } from '@forms/contracts';
import { draftValidationReport } from '@forms/draft-schema';
import type { DraftValidationDto, WorkspaceListDto } from './form-starts.dto';
import type { FormDetail } from './form-view';
import { FormsService } from './forms.service';
import { starterTemplate } from './starter-templates';
import { WorkspaceAccess } from './workspace-access';
import type { FormsWorkspaceContext } from './workspace-context';
import { ROLE_PERMISSIONS } from './workspace-roles';

/** What agents start from: the caller's workspaces, a draft's readiness, starter templates and copies of forms. */
@Injectable()
export class FormStarts {
  constructor(
    private readonly forms: FormsService,
    private readonly access: WorkspaceAccess,
  ) {}

  async workspaces(principal: Principal): Promise<WorkspaceListDto> {
    const memberships = await this.access.memberships(principal.subjectId);
    const workspaces = memberships.map((m) => ({
      id: m.workspace_id,
      name: m.name,
      role: m.role,
      plan: m.plan,
      canCreateForms: (ROLE_PERMISSIONS.edit as readonly string[]).includes(m.role),
    }));
    const writable = workspaces.filter((w) => w.canCreateForms);
    return {
      workspaces,
      defaultWorkspaceId: workspaces[0]?.id ?? null,
      recommendedCreateWorkspaceId: writable.length === 1 ? writable[0].id : null,
    };
  }

  /** The publish checks run on the current draft, with the workspace's plan. */
  async validateDraft(workspace: FormsWorkspaceContext, formId: string): Promise<DraftValidationDto> {
    const { data, draft_schema } = await this.forms.get(workspace, formId);
    return { formId: data.id, draftRevision: data.draft_revision, validation: draftValidationReport(draft_schema, { plan: workspace.plan }) };
  }

  fromStarter(target: FormsWorkspaceContext, templateId: string, title: string | undefined): Promise<FormDetail> {
    const template = starterTemplate(templateId);
    if (!template) throw FormsErrors.notFound('starter_template', templateId);
    return this.forms.create(target, { title, draftSchema: withName(template.draftSchema, title) });
  }

  /** A new draft form in `target` holding a copy of the source form's current draft. */
  async clone(source: FormsWorkspaceContext, formId: string, target: FormsWorkspaceContext, title: string | undefined): Promise<FormDetail> {
    const original = await this.forms.get(source, formId);
    const name = title?.trim() || `${original.data.title} (copy)`;
    return this.forms.create(target, { title: name, draftSchema: withName(original.draft_schema as unknown as Record<string, unknown>, name) });
  }
}

/** The draft with `settings.name` set to `title` (the stored title follows it), when a title is given. */
function withName(draft: Record<string, unknown>, title: string | undefined): Record<string, unknown> {
  const name = title?.trim();
  if (!name) return draft;
  return { ...draft, settings: { ...(draft.settings as Record<string, unknown> | undefined), name } };
}
