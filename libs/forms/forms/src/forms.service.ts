import { Inject, Injectable } from '@nestjs/common';
import { FormsErrors } from '@forms/contracts';
import { DraftEditError, DraftSchema, IdSource, parseDraftSchema, validateForPublish } from '@forms/draft-schema';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, IdGenerator } from '@shared/core';
import { draftTooLarge, fromEditError, invalidDraft, staleRevision } from './draft-errors';
import { FormDetail, FormSummary, toSummary, unixSeconds } from './form-view';
import { FormRow, FormsRepository } from './forms.repository';
import { PublishedForm, PublishedForms } from './published-forms';
import { newPublicId } from './public-id';
import type { WorkspacePlan } from './workspace-roles';
import type { FormsWorkspaceContext } from './workspace-context';

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

/**
 * Rules other modules own over a draft about to be stored (`before`: the stored draft it replaces; none for a new
 * form); it may refuse the draft by throwing.
 */
export type DraftCheck = (draft: DraftSchema, before: DraftSchema | undefined) => Promise<void>;

/** A DraftCheck as editDraft's `check`: the edited draft, with the draft it was made from. */
export const asEditCheck = (check: DraftCheck | undefined) => check && ((edited: { schema: DraftSchema }, before: DraftSchema) => check(edited.schema, before));

/** Forms and their drafts: creation, reads, draft writes under optimistic concurrency, publishing and closing. */
@Injectable()
export class FormsService {
  readonly ids: IdSource = (prefix) => this.idGenerator.newId(prefix);

  constructor(
    private readonly repository: FormsRepository,
    private readonly published: PublishedForms,
    private readonly idGenerator: IdGenerator,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(workspace: FormsWorkspaceContext, input: { title?: string; draftSchema?: Record<string, unknown> }, check?: DraftCheck): Promise<FormDetail> {
    const schema = this.parse(input.draftSchema ?? { steps: [{ title: 'Step 1', fields: [] }] }, 'draftSchema');
    await check?.(schema, undefined);
    const at = this.clock.now();
    const title = named(schema, input.title?.trim() || DEFAULT_TITLE);
    this.assertFits(schema);
    const form = await this.repository.create(workspace.workspaceId, {
      id: this.idGenerator.newId('frm'),
      public_id: newPublicId(),
      title,
      slug: schema.settings.slug ?? null,
      draft_schema: schema,
      at,
    });
    return this.detail(workspace, form);
  }

  async list(workspaces: readonly FormsWorkspaceContext[], query: { limit: number }): Promise<{ data: FormSummary[]; next_cursor: null }> {
    const workspaceIds = workspaces.map((workspace) => workspace.workspaceId);
    const rows = await this.repository.list(workspaceIds, query.limit);
    const counts = await this.repository.responseCounts(
      workspaceIds,
      rows.map((row) => row.id),
    );
    return { data: rows.map((row) => toSummary(row, counts.get(row.id) ?? 0, this.config.formsPublicBaseUrl)), next_cursor: null };
  }

  async get(workspace: FormsWorkspaceContext, formId: string): Promise<FormDetail> {
    return this.detail(workspace, await this.form(workspace, formId));
  }

  /** PATCH: a new title and/or a whole new draft. */
  async update(
    workspace: FormsWorkspaceContext,
    formId: string,
    input: { title?: string; draftSchema?: Record<string, unknown> } & RevisionGuard,
    check?: DraftCheck,
  ) {
    const title = input.title?.trim();
    if (input.title !== undefined && !title) throw FormsErrors.invalid('validation_failed', 'title must not be blank.', 'title');
    const parsed = input.draftSchema ? this.parse(input.draftSchema, 'draftSchema') : undefined;
    const written = await this.editDraft(
      workspace,
      formId,
      input,
      (current) => {
        const schema = parsed ?? current;
        return { schema: title && (!parsed || !parsed.settings.name) ? rename(schema, title) : schema, result: null };
      },
      asEditCheck(check),
    );
    const detail = await this.detail(workspace, written.form);
    return parsed ? { ...detail, draft_updated_at: written.draft_updated_at, draft_revision: written.draft_revision } : detail;
  }

  async replaceDraft(workspace: FormsWorkspaceContext, formId: string, input: { draftSchema: Record<string, unknown> } & RevisionGuard, check?: DraftCheck) {
    const schema = this.parse(input.draftSchema, 'draftSchema');
    const written = await this.editDraft(workspace, formId, input, () => ({ schema, result: null }), asEditCheck(check));
    return { ...(await this.detail(workspace, written.form)), draft_updated_at: written.draft_updated_at, draft_revision: written.draft_revision };
  }

  async delete(workspace: FormsWorkspaceContext, formId: string): Promise<{ ok: true; id: string }> {
    const form = await this.form(workspace, formId);
    await this.repository.delete(workspace.workspaceId, form.id);
    await this.published.invalidate(form.public_id);
    return { ok: true, id: form.id };
  }

  async publish(workspace: FormsWorkspaceContext, formId: string, input: { draftSchema?: Record<string, unknown> } & RevisionGuard, check?: DraftCheck) {
    let form = await this.form(workspace, formId);
    if (input.draftSchema) {
      // Checked before saving, so a refused publish leaves the draft as it was.
      const schema = this.parse(input.draftSchema, 'draftSchema');
      assertPublishable(schema, workspace.plan);
      form = (await this.editDraft(workspace, formId, input, () => ({ schema, result: null }), asEditCheck(check))).form;
    } else {
      this.checkRevision(form, input);
      assertPublishable(form.draft_schema as unknown as DraftSchema, workspace.plan);
    }
    const published = await this.repository.publish(workspace.workspaceId, form, form.draft_schema as unknown as DraftSchema, this.clock.now());
    if (!published) {
      const current = await this.form(workspace, formId);
      throw staleRevision(current.draft_revision, form.draft_revision);
    }
    await this.published.invalidate(published.public_id);
    const detail = await this.detail(workspace, published);
    return { ...detail, published_at: detail.data.published_at as string, public_url: detail.data.public_url };
  }

  /** Stops (or resumes) accepting submissions on a published form. */
  async setAcceptingSubmissions(workspace: FormsWorkspaceContext, formId: string, accepting: boolean): Promise<FormDetail> {
    const form = await this.form(workspace, formId);
    if (form.status === 'draft') throw FormsErrors.failAs('conflict', 'form_not_published', 'Publish the form before opening or closing it.');
    const updated = await this.repository.setStatus(workspace.workspaceId, form.id, accepting ? 'published' : 'closed', this.clock.now());
    await this.published.invalidate(updated.public_id);
    return this.detail(workspace, updated);
  }

  /**
   * Applies a pure edit to the current draft and stores it as the next revision. The write is a compare-and-set on
   * the revision that was read, so two writers can never both win from the same revision: with a `draft_revision`
   * the loser gets 409; without one (or with `force`) the edit is re-applied to the newer draft. `check` sees each
   * edited draft, with the draft it was made from, before it is stored and may refuse it (rules other modules own).
   */
  async editDraft<T>(
    workspace: FormsWorkspaceContext,
    formId: string,
    guard: RevisionGuard,
    edit: (schema: DraftSchema) => DraftEdit<T>,
    check?: (edited: DraftEdit<T>, before: DraftSchema) => Promise<void>,
  ): Promise<DraftWriteResult<T>> {
    const checked = guard.draft_revision !== undefined && !guard.force;
    for (let attempt = 1; ; attempt++) {
      const form = await this.form(workspace, formId);
      this.checkRevision(form, guard);
      const outcome = this.applyEdit(edit, form.draft_schema as unknown as DraftSchema);
      await check?.(outcome, form.draft_schema as unknown as DraftSchema);
      const title = named(outcome.schema, outcome.title ?? form.title);
      this.assertFits(outcome.schema, form.draft_schema as unknown as DraftSchema);
      const at = this.clock.now();
      const written = await this.repository.writeDraft(workspace.workspaceId, form.id, form.draft_revision, {
        title,
        slug: outcome.schema.settings.slug ?? null,
        draft_schema: outcome.schema,
        at,
      });
      if (written)
        return { form: written, result: outcome.result, draft_revision: written.draft_revision, draft_updated_at: unixSeconds(written.draft_updated_at) };
      if (checked) throw staleRevision(form.draft_revision + 1, guard.draft_revision as number);
      if (attempt >= MAX_WRITE_ATTEMPTS) throw FormsErrors.fail('draft_busy', 'The draft is being changed by other writers right now; retry shortly.');
      await backoff(attempt);
    }
  }

  /** The form in the request's workspace; 404 when it has none with this id (gone since, or never there). */
  async form(workspace: FormsWorkspaceContext, formId: string): Promise<FormRow> {
    const form = await this.repository.find(workspace.workspaceId, formId);
    if (!form) throw FormsErrors.notFound('form', formId);
    return form;
  }

  /** The published snapshot of a form of the request's workspace, through the cache (the submission hot path). */
  async publishedForm(workspace: FormsWorkspaceContext, formId: string): Promise<PublishedForm> {
    const form = await this.published.byFormId(formId);
    if (!form || form.workspaceId !== workspace.workspaceId) throw FormsErrors.notFound('form', formId);
    return form;
  }

  private async detail(workspace: FormsWorkspaceContext, form: FormRow): Promise<FormDetail> {
    const [version, counts] = await Promise.all([
      this.repository.version(workspace.workspaceId, form.id, form.published_version),
      this.repository.responseCounts([workspace.workspaceId], [form.id]),
    ]);
    return {
      data: toSummary(form, counts.get(form.id) ?? 0, this.config.formsPublicBaseUrl),
      draft_schema: form.draft_schema as unknown as DraftSchema,
      published_schema: (version?.schema as unknown as DraftSchema) ?? null,
    };
  }

  /**
   * Every stored draft stays within FORMS_MAX_DRAFT_BYTES, whichever write made it: step and field edits grow a draft
   * without a whole-draft body, and a stored draft over the limit could no longer be sent back whole. A draft stored
   * over it before the limit held (`before`) may still be made smaller.
   */
  private assertFits(schema: DraftSchema, before?: DraftSchema): void {
    const max = this.config.formsMaxDraftBytes;
    const size = Buffer.byteLength(JSON.stringify(schema));
    if (size > max && (!before || size >= Buffer.byteLength(JSON.stringify(before)))) throw draftTooLarge(max);
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
}

/** The form's title follows `settings.name`; when the draft has none (or only blanks), it is given `fallback`. */
function named(schema: DraftSchema, fallback: string): string {
  if (!schema.settings.name?.trim()) schema.settings.name = fallback;
  return schema.settings.name;
}

function assertPublishable(schema: DraftSchema, plan: WorkspacePlan): void {
  const issues = validateForPublish(schema, { plan });
  if (issues.length) throw invalidDraft(issues, 'draftSchema', 'draft_not_publishable');
}

function rename(schema: DraftSchema, title: string): DraftSchema {
  return { ...schema, settings: { ...schema.settings, name: title } };
}
