import { Injectable } from '@nestjs/common';
import type { Principal } from '@shared/auth';
import { DomainError } from '@shared/errors';
import { FormsErrors } from '@forms/contracts';
import { draftValidationReport, type DraftSchema } from '@forms/draft-schema';
import type { CreateFormStatusDto, DraftValidationDto, WorkspaceListDto } from './form-starts.dto';
import type { FormDetail } from './form-view';
import { DraftCheck, FormsService } from './forms.service';
import { starterTemplate } from './starter-templates';
import { WorkspaceAccess } from './workspace-access';
import { FormsWorkspaceContext, WorkspaceContextResolver } from './workspace-context';
import { ROLE_PERMISSIONS } from './workspace-roles';

/** What agents start from: the caller's workspaces, a draft's readiness, starter templates and copies of forms. */
@Injectable()
export class FormStarts {
  constructor(
    private readonly forms: FormsService,
    private readonly access: WorkspaceAccess,
    private readonly resolver: WorkspaceContextResolver,
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

  /**
   * What a creation's idempotency key made, from the answer recorded for it (`created`: the body of a 2xx create), read
   * again live so a form deleted since, or one the caller can no longer see, is not shown.
   */
  async creationStatus(
    principal: Principal,
    key: string,
    outcome: { state: 'running' } | { state: 'done'; body: unknown } | null,
  ): Promise<CreateFormStatusDto> {
    if (!outcome) return { idempotencyKey: key, status: 'unknown', form: null };
    if (outcome.state === 'running') return { idempotencyKey: key, status: 'in_progress', form: null };
    const formId = (outcome.body as { data?: { id?: unknown } } | null)?.data?.id;
    if (typeof formId !== 'string') return { idempotencyKey: key, status: 'unknown', form: null };
    try {
      const workspace = await this.resolver.forForm(principal, formId, 'view');
      return { idempotencyKey: key, status: 'created', form: (await this.forms.get(workspace, formId)).data };
    } catch (error) {
      if (error instanceof DomainError && error.status === 404) return { idempotencyKey: key, status: 'deleted', form: null };
      throw error;
    }
  }

  /** `check` may refuse the template's draft in `target` (the payments module's rules for payment fields). */
  fromStarter(target: FormsWorkspaceContext, templateId: string, title: string | undefined, check?: DraftCheck): Promise<FormDetail> {
    const template = starterTemplate(templateId);
    if (!template) throw FormsErrors.notFound('starter_template', templateId);
    return this.forms.create(target, { title, draftSchema: withName(template.draftSchema, title) }, check);
  }

  /**
   * A new draft form in `target` holding a copy of the source form's current draft (without its slug); `checkDraft` may
   * refuse the copy first (the payments module's rules for payment fields, in the target workspace).
   */
  async clone(
    source: FormsWorkspaceContext,
    formId: string,
    target: FormsWorkspaceContext,
    title: string | undefined,
    checkDraft?: (draft: DraftSchema) => Promise<void>,
  ): Promise<FormDetail> {
    const original = await this.forms.get(source, formId);
    await checkDraft?.(original.draft_schema);
    const name = title?.trim() || `${original.data.title} (copy)`;
    return this.forms.create(target, { title: name, draftSchema: withName(withoutSlug(original.draft_schema), name) });
  }
}

/** The draft without `settings.slug`: a copy is a new form, and the custom slug stays with the original. */
function withoutSlug(draft: DraftSchema): Record<string, unknown> {
  const { slug, ...settings } = draft.settings;
  return { ...draft, settings };
}

/** The draft with `settings.name` set to `title` (the stored title follows it), when a title is given. */
function withName(draft: Record<string, unknown>, title: string | undefined): Record<string, unknown> {
  const name = title?.trim();
  if (!name) return draft;
  return { ...draft, settings: { ...(draft.settings as Record<string, unknown> | undefined), name } };
}
