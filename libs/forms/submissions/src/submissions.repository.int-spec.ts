import { insertForm, useFormsDatabase, WORKSPACE_A, WORKSPACE_B } from '../../data-access/src/testing/forms-database.fixture';
import type { SubmissionRecord } from './submission-record';
import { NewSubmission, NewUpload, SubmissionsRepository } from './submissions.repository';

const HOUR = 3_600_000;

describe('SubmissionsRepository (real PostgreSQL)', () => {
  const db = useFormsDatabase();
  let repository: SubmissionsRepository;
  let seq = 0;
  beforeAll(async () => {
    repository = new SubmissionsRepository(db.prisma(), db.sql());
    for (const [id, status] of [
      ['frm_open', 'published'],
      ['frm_sibling', 'published'],
      ['frm_closed', 'closed'],
      ['frm_draft', 'draft'],
    ] as const) {
      await insertForm(db.prisma(), WORKSPACE_A, id, status);
    }
    await insertForm(db.prisma(), WORKSPACE_B, 'frm_of_b');
  });

  const submission = (formId: string, extra: Partial<NewSubmission> = {}): NewSubmission => {
    const id = `sbm_${++seq}`;
    return {
      id,
      formId,
      publishedVersion: 1,
      dedupeKey: null,
      record: { event: 'form.submitted', eventId: `evt_${id}`, submission: { id } } as unknown as SubmissionRecord,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)),
      uploadIds: [],
      ...extra,
    };
  };
  const upload = (formId: string, id = `upl_${++seq}`): NewUpload => ({
    id,
    formId,
    fileName: `${id}.txt`,
    mimeType: 'text/plain',
    size: 3,
    storageKey: `${formId}/${id}`,
    sha256: 'abc',
  });
  /** The form's counter rows: how many there are and what they add up to. */
  const counters = async (formId: string) => {
    const rows = await db.prisma().formResponseCount.findMany({ where: { form_id: formId } });
    return { shards: rows.length, total: rows.reduce((sum, row) => sum + row.count, 0) };
  };
  const stored = async (formId: string) => (await repository.list(WORKSPACE_A, formId, undefined, 1000)).length;

  describe('the prepared insert', () => {
    it('stores a submission of a published form, reads it back and counts it', async () => {
      const row = submission('frm_open');
      expect(await repository.insert(WORKSPACE_A, row)).toBe('stored');
      expect(await repository.get(WORKSPACE_A, 'frm_open', row.id)).toEqual(row.record);
      expect(await counters('frm_open')).toMatchObject({ total: 1 });
    });

    it('counts concurrent submissions on the shards, which add up to the number stored', async () => {
      const before = await counters('frm_sibling');
      const outcomes = await Promise.all(Array.from({ length: 40 }, () => repository.insert(WORKSPACE_A, submission('frm_sibling'))));
      expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(40);
      const after = await counters('frm_sibling');
      expect(after.total - before.total).toBe(40);
      expect(after.total).toBe(await stored('frm_sibling'));
      expect(after.shards).toBeLessThanOrEqual(16);
    });

    it('takes one submission per dedupe key, however many arrive at once, and counts it once', async () => {
      const before = await counters('frm_open');
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => repository.insert(WORKSPACE_A, submission('frm_open', { dedupeKey: 'session-1' }))));
      expect(outcomes.sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'stored']);
      expect((await counters('frm_open')).total - before.total).toBe(1);
      expect(await repository.insert(WORKSPACE_A, submission('frm_sibling', { dedupeKey: 'session-1' }))).toBe('stored');
    });

    it('refuses a form that is not published now, or is gone, and stores nothing', async () => {
      expect(await repository.insert(WORKSPACE_A, submission('frm_closed'))).toBe('form_not_accepting');
      expect(await repository.insert(WORKSPACE_A, submission('frm_draft'))).toBe('form_not_accepting');
      expect(await repository.insert(WORKSPACE_A, submission('frm_missing'))).toBe('form_gone');
      expect([await stored('frm_closed'), await stored('frm_draft')]).toEqual([0, 0]);
      expect(await counters('frm_closed')).toEqual({ shards: 0, total: 0 });
    });
  });

  describe('uploads', () => {
    it('are recorded only while their form is published', async () => {
      const open = upload('frm_open');
      expect(await repository.createUpload(WORKSPACE_A, open)).toBe(true);
      expect(await repository.createUpload(WORKSPACE_A, upload('frm_closed', 'upl_refused'))).toBe(false);
      expect(await repository.findUpload(WORKSPACE_A, 'frm_open', open.id)).toMatchObject({
        file_name: open.fileName,
        storage_key: open.storageKey,
        attached_at: null,
      });
      expect(await repository.findUpload(WORKSPACE_A, 'frm_closed', 'upl_refused')).toBeNull();
      expect([...(await repository.uploadsOf(WORKSPACE_A, 'frm_open', [open.id, 'upl_unknown'])).keys()]).toEqual([open.id]);
    });

    it('are attached by the submission that names them, only those of its own form', async () => {
      const mine = upload('frm_open');
      const sibling = upload('frm_sibling');
      await repository.createUpload(WORKSPACE_A, mine);
      await repository.createUpload(WORKSPACE_A, sibling);
      expect(await repository.insert(WORKSPACE_A, submission('frm_open', { uploadIds: [mine.id, sibling.id] }))).toBe('stored');
      expect((await repository.findUpload(WORKSPACE_A, 'frm_open', mine.id))?.attached_at).toBeInstanceOf(Date);
      expect((await repository.findUpload(WORKSPACE_A, 'frm_sibling', sibling.id))?.attached_at).toBeNull();
    });

    it('are removed by the clean-up across workspaces once old and unattached; attached and young ones stay', async () => {
      const old = new Date(Date.now() - 48 * HOUR);
      const rows = [
        { id: 'upl_old_a', form_id: 'frm_open', created_at: old, attached_at: null },
        { id: 'upl_old_b', form_id: 'frm_of_b', created_at: old, attached_at: null },
        { id: 'upl_old_attached', form_id: 'frm_open', created_at: old, attached_at: old },
        { id: 'upl_young', form_id: 'frm_open', created_at: new Date(), attached_at: null },
      ];
      await db.prisma().formUpload.createMany({
        data: rows.map((row) => ({ ...row, file_name: 'f', mime_type: 'text/plain', size: 1, storage_key: `${row.form_id}/${row.id}` })),
      });
      const removed = await repository.deleteUnattachedUploadsOfAllWorkspaces(new Date(Date.now() - 24 * HOUR), 100);
      expect(removed.sort()).toEqual(['frm_of_b/upl_old_b', 'frm_open/upl_old_a']);
      const left = await db.prisma().formUpload.findMany({ where: { id: { in: rows.map((row) => row.id) } }, select: { id: true } });
      expect(left.map((row) => row.id).sort()).toEqual(['upl_old_attached', 'upl_young']);
      expect([...(await repository.existingFormIdsOfAllWorkspaces(['frm_open', 'frm_of_b', 'frm_deleted']))].sort()).toEqual(['frm_of_b', 'frm_open']);
    });
  });

  describe('tenancy: a form of workspace A, through workspace B', () => {
    const kept = { submission: submission('frm_open'), upload: upload('frm_open') };
    beforeAll(async () => {
      await repository.insert(WORKSPACE_A, kept.submission);
      await repository.createUpload(WORKSPACE_A, kept.upload);
    });

    it('hides its submissions and uploads from every read', async () => {
      expect(await repository.list(WORKSPACE_B, 'frm_open', undefined, 1000)).toEqual([]);
      expect(await repository.get(WORKSPACE_B, 'frm_open', kept.submission.id)).toBeNull();
      expect(await repository.findUpload(WORKSPACE_B, 'frm_open', kept.upload.id)).toBeNull();
      expect((await repository.uploadsOf(WORKSPACE_B, 'frm_open', [kept.upload.id])).size).toBe(0);
      // Through A the same reads find them.
      expect(await repository.get(WORKSPACE_A, 'frm_open', kept.submission.id)).not.toBeNull();
      expect((await repository.uploadsOf(WORKSPACE_A, 'frm_open', [kept.upload.id])).size).toBe(1);
    });

    it('takes no submission, upload, attachment or count through B, as read through A afterwards', async () => {
      const before = { stored: await stored('frm_open'), counters: await counters('frm_open') };
      const intruder = submission('frm_open', { uploadIds: [kept.upload.id] });
      expect(await repository.insert(WORKSPACE_B, intruder)).toBe('form_gone');
      expect(await repository.createUpload(WORKSPACE_B, upload('frm_open', 'upl_intruder'))).toBe(false);
      expect(await repository.get(WORKSPACE_A, 'frm_open', intruder.id)).toBeNull();
      expect(await repository.findUpload(WORKSPACE_A, 'frm_open', 'upl_intruder')).toBeNull();
      expect((await repository.findUpload(WORKSPACE_A, 'frm_open', kept.upload.id))?.attached_at).toBeNull();
      expect({ stored: await stored('frm_open'), counters: await counters('frm_open') }).toEqual(before);
    });
  });
});
