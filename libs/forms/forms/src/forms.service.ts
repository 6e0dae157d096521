import { Inject, Injectable } from '@nestjs/common';
import { DraftEditError, DraftSchema, IdSource, parseDraftSchema, validateForPublish } from '@forms/draft-schema';
import type { Principal } from '@shared/auth';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, IdGenerator } from '@shared/core';
import { Conflict, DomainError, InvalidRequest, NotFound } from '@shared/errors';
import { fromEditError, invalidDraft, staleRevision } from './draft-errors';
import { FormDetail, FormSummary, toSummary, unixSeconds } from './form-view';
import { FormRow, FormsRepository, FormWithAccess } from './forms.repository';
import { PublishedForm, PublishedForms } from './published-forms';
import { newPublicId } from './public-id';
import { assertRoleAllows, Permission, WorkspaceAccess } from './workspace-access';

/** `draft_revision` + `force` as every draft write accepts them. */
export interface RevisionGuard {
  draft_revision?: number;
  /** Skip the stale-revision check and write over whatever the draft holds now. */
  force?: boolean;
}

export interface DraftEdit<T> {
  schema: DraftSchema;
  result: T;
  /** A new title to store when the draft does not name the form itself. */
  title?: string;
}

export interface DraftWriteResult<T> {
  form: FormRow;
  result: T;
  draft_revision: number;
  draft_updated_at: number;
}

const DEFAULT_TITLE = 'Untitled form';
/** Retries of a write that lost a compare-and-set race to a concurrent writer (only when no revision was sent). */
const MAX_WRITE_ATTEMPTS = 20;

/** A short random pause before retrying, growing with the attempt, so racing writers stop colliding in lockstep. */
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.min(attempt, 8)));

/** Forms and their drafts: creation, reads, draft writes under optimistic concurrency, publishing and closing. */
@Injectable()
export class FormsService {
  readonly ids: IdSource = (prefix) => this.idGenerator.newId(prefix);

  constructor(
    private readonly repository: FormsRepository,
    private readonly access: WorkspaceAccess,
    private readonly published: PublishedForms,
    private readonly idGenerator: IdGenerator,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(principal: Principal, input: { workspaceId?: string; title?: string; draftSchema?: Record<string, unknown> }): Promise<FormDetail> {
    const workspaceId = await this.workspaceForCreate(principal.subjectId, input.workspaceId);
    const schema = this.parse(input.draftSchema ?? { steps: [{ title: 'Step 1', fields: [] }] }, 'draftSchema');
    const at = this.clock.now();
    const title = named(schema, input.title?.trim() || DEFAULT_TITLE);
    const form = await this.guardSlug(() =>
      this.repository.create({
        id: this.idGenerator.newId('frm'),
        workspace_id: workspaceId,
        public_id: newPublicId(),
        title,
        slug: schema.settings.slug ?? null,
        draft_schema: schema,
        at,
      }),
    );
    return this.detail(form);
  }

  async list(principal: Principal, query: { limit: number; workspaceId?: string }): Promise<{ data: FormSummary[]; next_cursor: null }> {
    if (query.workspaceId && !(await this.access.membership(principal.subjectId, query.workspaceId))) {
      throw NotFound('workspace', query.workspaceId);
    }
    const rows = await this.repository.list(principal.subjectId, query.workspaceId, query.limit);
    const counts = await this.repository.responseCounts(rows.map((row) => row.id));
    return { data: rows.map((row) => toSummary(row, counts.get(row.id) ?? 0, this.config.formsPublicBaseUrl)), next_cursor: null };
  }

  async get(principal: Principal, formId: string): Promise<FormDetail> {
    const { form } = await this.accessible(principal, formId, 'view');
    return this.detail(form);
  }

  /** PATCH: a new title and/or a whole new draft. */
  async update(principal: Principal, formId: string, input: { title?: string; draftSchema?: Record<string, unknown> } & RevisionGuard) {
    const title = input.title?.trim();
    if (input.title !== undefined && !title) throw InvalidRequest('validation_failed', 'title must not be blank.', 'title');
    const parsed = input.draftSchema ? this.parse(input.draftSchema, 'draftSchema') : undefined;
    const written = await this.editDraft(principal, formId, input, (current) => {
      const schema = parsed ?? current;
      return { schema: title && (!parsed || !parsed.settings.name) ? rename(schema, title) : schema, result: null };
    });
    const detail = await this.detail(written.form);
    return parsed ? { ...detail, draft_updated_at: written.draft_updated_at, draft_revision: written.draft_revision } : detail;
  }

  async replaceDraft(principal: Principal, formId: string, input: { draftSchema: Record<string, unknown> } & RevisionGuard) {
    const schema = this.parse(input.draftSchema, 'draftSchema');
    const written = await this.editDraft(principal, formId, input, () => ({ schema, result: null }));
    return { ...(await this.detail(written.form)), draft_updated_at: written.draft_updated_at, draft_revision: written.draft_revision };
  }

  async delete(principal: Principal, formId: string): Promise<{ ok: true; id: string }> {
    const { form } = await this.accessible(principal, formId, 'edit');
    await this.repository.delete(form.id);
    await this.published.invalidate(form.public_id);
    return { ok: true, id: form.id };
  }

  async publish(principal: Principal, formId: string, input: { draftSchema?: Record<string, unknown> } & RevisionGuard) {
    let { form, plan } = await this.accessible(principal, formId, 'edit');
    if (input.draftSchema) {
      // Checked before saving, so a refused publish leaves the draft as it was.
      const schema = this.parse(input.draftSchema, 'draftSchema');
      assertPublishable(schema, plan);
      form = (await this.editDraft(principal, formId, input, () => ({ schema, result: null }))).form;
    } else {
      this.checkRevision(form, input);
      assertPublishable(form.draft_schema as unknown as DraftSchema, plan);
    }
    const published = await this.repository.publish(form, form.draft_schema as unknown as DraftSchema, this.clock.now());
    if (!published) {
      const current = (await this.accessible(principal, formId, 'edit')).form;
      throw staleRevision(current.draft_revision, form.draft_revision);
    }
    await this.published.invalidate(published.public_id);
    const detail = await this.detail(published);
    return { ...detail, published_at: detail.data.published_at as string, public_url: detail.data.public_url };
  }

  /** Stops (or resumes) accepting submissions on a published form. */
  async setAcceptingSubmissions(principal: Principal, formId: string, accepting: boolean): Promise<FormDetail> {
    const { form } = await this.accessible(principal, formId, 'edit');
    if (form.status === 'draft') throw Conflict('form_not_published', 'Publish the form before opening or closing it.');
    const updated = await this.repository.setStatus(form.id, accepting ? 'published' : 'closed', this.clock.now());
    await this.published.invalidate(updated.public_id);
    return this.detail(updated);
  }

  /**
   * Applies a pure edit to the current draft and stores it as the next revision. The write is a compare-and-set on
   * the revision that was read, so two writers can never both win from the same revision: with a `draft_revision`
   * the loser gets 409; without one (or with `force`) the edit is re-applied to the newer draft.
   */
  async editDraft<T>(principal: Principal, formId: string, guard: RevisionGuard, edit: (schema: DraftSchema) => DraftEdit<T>): Promise<DraftWriteResult<T>> {
    const checked = guard.draft_revision !== undefined && !guard.force;
    for (let attempt = 1; ; attempt++) {
      const { form } = await this.accessible(principal, formId, 'edit');
      this.checkRevision(form, guard);
      const outcome = this.applyEdit(edit, form.draft_schema as unknown as DraftSchema);
      const title = named(outcome.schema, outcome.title ?? form.title);
      const at = this.clock.now();
      const written = await this.guardSlug(() =>
        this.repository.writeDraft(form.id, form.draft_revision, { title, slug: outcome.schema.settings.slug ?? null, draft_schema: outcome.schema, at }),
      );
      if (written) return { form: written, result: outcome.result, draft_revision: written.draft_revision, draft_updated_at: unixSeconds(written.draft_updated_at) };
      if (checked) throw staleRevision(form.draft_revision + 1, guard.draft_revision as number);
      if (attempt >= MAX_WRITE_ATTEMPTS) throw Conflict('draft_busy', 'The draft is being changed by other writers right now; retry shortly.');
      await backoff(attempt);
    }
  }

  /** The form with the caller's access checked: 404 when not a member of its workspace, 403 when the role falls short. */
  async accessible(principal: Principal, formId: string, permission: Permission): Promise<FormWithAccess> {
    const found = await this.repository.findWithAccess(principal.subjectId, formId);
    if (!found || !found.role) throw NotFound('form', formId);
    assertRoleAllows(found.role, permission);
    return found;
  }

  /** The published snapshot of a form the caller can reach, through the cache (the submission hot path). */
  async publishedFor(principal: Principal, formId: string, permission: Permission): Promise<PublishedForm> {
    const form = await this.published.byFormId(formId);
    const membership = form && (await this.access.membership(principal.subjectId, form.workspaceId));
    if (!form || !membership) throw NotFound('form', formId);
    assertRoleAllows(membership.role, permission);
    return form;
  }

  async detail(form: FormRow): Promise<FormDetail> {
    const [version, counts] = await Promise.all([this.repository.version(form.id, form.published_version), this.repository.responseCounts([form.id])]);
    return {
      data: toSummary(form, counts.get(form.id) ?? 0, this.config.formsPublicBaseUrl),
      draft_schema: form.draft_schema as unknown as DraftSchema,
      published_schema: (version?.schema as unknown as DraftSchema) ?? null,
    };
  }

  private checkRevision(form: FormRow, guard: RevisionGuard): void {
    if (guard.draft_revision !== undefined && !guard.force && guard.draft_revision !== form.draft_revision) {
      throw staleRevision(form.draft_revision, guard.draft_revision);
    }
  }

  private applyEdit<T>(edit: (schema: DraftSchema) => DraftEdit<T>, schema: DraftSchema): DraftEdit<T> {
    try {
      return edit(schema);
    } catch (error) {
      if (error instanceof DraftEditError) throw fromEditError(error);
      throw error;
    }
  }

  private parse(input: unknown, path: string): DraftSchema {
    const parsed = parseDraftSchema(input, this.ids);
    if (!parsed.ok) throw invalidDraft(parsed.issues, path);
    return parsed.value;
  }

  private async workspaceForCreate(ownerId: string, workspaceId: string | undefined): Promise<string> {
    const memberships = await this.access.memberships(ownerId);
    if (workspaceId) {
      const membership = memberships.find((m) => m.workspace_id === workspaceId);
      if (!membership) throw NotFound('workspace', workspaceId);
      assertRoleAllows(membership.role, 'edit');
      return workspaceId;
    }
    const writable = memberships.filter((m) => m.role !== 'viewer');
    if (writable.length === 1) return writable[0].workspace_id;
    if (writable.length === 0) {
      throw new DomainError('permission_error', 'no_writable_workspace', 'You have no workspace where you can create forms (an owner or editor role is needed).');
    }
    throw InvalidRequest('workspace_required', 'You can create forms in several workspaces; send workspaceId to choose one.', 'workspaceId');
  }

  private async guardSlug<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (this.repository.slugTaken(error)) {
        throw Conflict('slug_taken', 'Another form in this workspace already uses this slug.', { field: 'draftSchema.settings.slug' });
      }
      throw error;
    }
  }
}

/** The form's title follows `settings.name`; when the draft has none, it is given `fallback`. */
function named(schema: DraftSchema, fallback: string): string {
  if (!schema.settings.name) schema.settings.name = fallback;
  return schema.settings.name;
}

function assertPublishable(schema: DraftSchema, plan: FormWithAccess['plan']): void {
  const issues = validateForPublish(schema, { plan });
  if (issues.length) throw invalidDraft(issues, 'draftSchema', 'draft_not_publishable');
}

function rename(schema: DraftSchema, title: string): DraftSchema {
  return { ...schema, settings: { ...schema.settings, name: title } };
}
