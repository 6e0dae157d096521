import type { DraftSchema } from '@forms/draft-schema';
import { holdRowLock, insertForm, useFormsDatabase, WORKSPACE_A, WORKSPACE_B } from '../../data-access/src/testing/forms-database.fixture';
import { DraftWrite, FormsRepository } from './forms.repository';

const draft = (title: string, slug: string | null = null): DraftWrite => ({
  title,
  slug,
  draft_schema: { settings: { name: title }, steps: [] } as unknown as DraftSchema,
  at: new Date(),
});

describe('FormsRepository (real PostgreSQL)', () => {
  const db = useFormsDatabase();
  let forms: FormsRepository;
  beforeAll(() => {
    forms = new FormsRepository(db.prisma(), db.sql());
  });
  const newForm = (workspaceId: typeof WORKSPACE_A, id: string, slug: string | null = null) =>
    forms.create(workspaceId, { id, public_id: `pub_${id}`, ...draft(id, slug) });

  describe('writeDraft: compare-and-set on the draft revision', () => {
    it('lets exactly one of several writers from the same revision win, even when they run at once', async () => {
      const form = await newForm(WORKSPACE_A, 'frm_race');
      const lock = await holdRowLock(db.url(), 'forms', form.id);
      const writes = Array.from({ length: 6 }, (_, i) => forms.writeDraft(WORKSPACE_A, form.id, 0, draft(`writer ${i}`)));
      try {
        await lock.queued(6);
      } finally {
        await lock.release();
      }
      const winners = (await Promise.all(writes)).filter((row) => row !== null);
      expect(winners.map((row) => row.draft_revision)).toEqual([1]);
      expect(await forms.find(WORKSPACE_A, form.id)).toMatchObject({ draft_revision: 1, title: winners[0].title });
    });

    it('refuses a write from a revision the draft has left, and leaves the draft as it was', async () => {
      const form = await newForm(WORKSPACE_A, 'frm_stale');
      expect(await forms.writeDraft(WORKSPACE_A, form.id, 0, draft('first'))).toMatchObject({ draft_revision: 1, title: 'first' });
      expect(await forms.writeDraft(WORKSPACE_A, form.id, 0, draft('late'))).toBeNull();
      expect(await forms.find(WORKSPACE_A, form.id)).toMatchObject({ draft_revision: 1, title: 'first' });
    });

    it('answers a slug another form of the workspace holds with 409 slug_taken; other workspaces may use it', async () => {
      await newForm(WORKSPACE_A, 'frm_slug_owner', 'taken');
      const other = await newForm(WORKSPACE_A, 'frm_slug_other');
      await expect(forms.writeDraft(WORKSPACE_A, other.id, 0, draft('x', 'taken'))).rejects.toMatchObject({ status: 409, code: 'slug_taken' });
      await expect(newForm(WORKSPACE_A, 'frm_slug_third', 'taken')).rejects.toMatchObject({ status: 409, code: 'slug_taken' });
      expect(await newForm(WORKSPACE_B, 'frm_slug_elsewhere', 'taken')).toMatchObject({ slug: 'taken' });
    });
  });

  it('publishes the next version once: a publish from a draft revision that has moved on stores nothing', async () => {
    const form = await newForm(WORKSPACE_A, 'frm_publish');
    const schema = { settings: { name: 'v1' }, steps: [] } as unknown as DraftSchema;
    expect(await forms.publish(WORKSPACE_A, form, schema, new Date())).toMatchObject({ published_version: 1, status: 'published' });
    expect(await forms.publish(WORKSPACE_A, form, schema, new Date())).toBeNull();
    expect((await forms.version(WORKSPACE_A, form.id, 1))?.schema).toEqual(schema);
    expect(await forms.version(WORKSPACE_A, form.id, 2)).toBeNull();
  });

  it('sums each form’s counter shards', async () => {
    await insertForm(db.prisma(), WORKSPACE_A, 'frm_counted');
    await insertForm(db.prisma(), WORKSPACE_A, 'frm_uncounted');
    await db.prisma().formResponseCount.createMany({
      data: [
        { form_id: 'frm_counted', shard: 0, count: 3 },
        { form_id: 'frm_counted', shard: 7, count: 4 },
        { form_id: 'frm_counted', shard: 15, count: 1 },
      ],
    });
    const counts = await forms.responseCounts([WORKSPACE_A], ['frm_counted', 'frm_uncounted']);
    expect(Object.fromEntries(counts)).toEqual({ frm_counted: 8 });
  });

  it('lists only the forms of the workspaces it is given', async () => {
    const listed = await forms.list([WORKSPACE_B], 100);
    expect(listed.map((row) => row.workspace_id)).toEqual(listed.map(() => WORKSPACE_B));
    expect(listed.map((row) => row.id)).toContain('frm_slug_elsewhere');
  });

  describe('tenancy: a form of workspace A, through workspace B', () => {
    let before: Awaited<ReturnType<FormsRepository['find']>>;
    beforeAll(async () => {
      const form = await newForm(WORKSPACE_A, 'frm_tenant');
      await forms.publish(WORKSPACE_A, form, form.draft_schema as unknown as DraftSchema, new Date());
      await db.prisma().formResponseCount.create({ data: { form_id: form.id, shard: 0, count: 2 } });
      before = await forms.find(WORKSPACE_A, form.id);
    });

    it('is invisible to every read', async () => {
      expect(await forms.find(WORKSPACE_B, 'frm_tenant')).toBeNull();
      expect((await forms.list([WORKSPACE_B], 100)).map((row) => row.id)).not.toContain('frm_tenant');
      expect(await forms.version(WORKSPACE_B, 'frm_tenant', 1)).toBeNull();
      expect((await forms.responseCounts([WORKSPACE_B], ['frm_tenant'])).size).toBe(0);
      // The same reads through A find it, so the ones above are empty because of the workspace alone.
      expect(await forms.version(WORKSPACE_A, 'frm_tenant', 1)).not.toBeNull();
      expect((await forms.responseCounts([WORKSPACE_A], ['frm_tenant'])).get('frm_tenant')).toBe(2);
    });

    it('is untouched by every write, as read through A afterwards', async () => {
      const form = before!;
      expect(await forms.writeDraft(WORKSPACE_B, form.id, form.draft_revision, draft('hijacked'))).toBeNull();
      expect(await forms.publish(WORKSPACE_B, form, { steps: [] } as unknown as DraftSchema, new Date())).toBeNull();
      await expect(forms.setStatus(WORKSPACE_B, form.id, 'closed', new Date())).rejects.toMatchObject({ code: 'P2025' });
      await expect(forms.delete(WORKSPACE_B, form.id)).rejects.toMatchObject({ code: 'P2025' });
      expect(await forms.find(WORKSPACE_A, form.id)).toEqual(before);
      expect(await forms.version(WORKSPACE_A, form.id, 2)).toBeNull();
    });
  });

  it('takes only a WorkspaceId: a plain string does not compile', async () => {
    // @ts-expect-error: a workspace id comes from a checked source (the request's resolved workspace), never a plain string
    await expect(forms.find('wrk_a', 'frm_tenant')).resolves.not.toBeNull();
  });
});
