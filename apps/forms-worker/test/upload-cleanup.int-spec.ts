/**
 * The forms-worker's repeatable clean-up: uploads no submission refers to are removed (row and file) once older than
 * FORMS_UPLOAD_RETENTION_HOURS; attached uploads and young ones stay; files of deleted forms go. Real PostgreSQL, Redis
 * and BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FormsPrisma } from '@forms/data-access';
import { UploadStorage } from '@forms/submissions';
import { FormsQueues } from '@forms/contracts';
import { afterStartupRun } from '@shared/testing';
import { settled, useFormsWorker } from './worker.fixture';

const HOUR = 3_600_000;

describe('forms-worker: removing unattached uploads', () => {
  const fixture = useFormsWorker({ FORMS_UPLOAD_RETENTION_HOURS: '24' });
  const { uploadDir } = fixture;

  it('is a repeatable job that removes old unattached uploads and the files of deleted forms, and keeps attached and young ones', async () => {
    const worker = fixture.worker();
    const prisma = worker.app.get(FormsPrisma);
    const storage = worker.app.get(UploadStorage);
    const queue = worker.app.get<Queue>(getQueueToken(FormsQueues.formsUploadCleanup));
    expect((await queue.getJobSchedulers()).map((scheduler) => scheduler.key)).toContain('remove-unattached-uploads');
    await afterStartupRun(queue);

    await prisma.workspace.create({ data: { id: 'wrk_1', name: 'W' } });
    await prisma.form.create({
      data: { id: 'frm_1', workspace_id: 'wrk_1', title: 'F', status: 'published', draft_schema: {}, draft_updated_at: new Date(), public_id: 'pub_1' },
    });
    const now = Date.now();
    const uploads = {
      upl_old: { ageHours: 25, attached: false },
      upl_old_attached: { ageHours: 48, attached: true },
      upl_young: { ageHours: 23, attached: false },
    };
    for (const [id, { ageHours, attached }] of Object.entries(uploads)) {
      const stored = await storage.write(`frm_1/${id}`, Readable.from([Buffer.from(id)]), 1024);
      await prisma.formUpload.create({
        data: {
          id,
          form_id: 'frm_1',
          file_name: `${id}.pdf`,
          mime_type: 'application/pdf',
          storage_key: `frm_1/${id}`,
          ...stored,
          created_at: new Date(now - ageHours * HOUR),
          attached_at: attached ? new Date(now - HOUR) : null,
        },
      });
    }
    // An upload from before files left the database: its bytes are in the row.
    await prisma.formUpload.create({
      data: {
        id: 'upl_legacy',
        form_id: 'frm_1',
        file_name: 'old.pdf',
        mime_type: 'application/pdf',
        size: 3,
        data: new Uint8Array([1, 2, 3]),
        created_at: new Date(now - 30 * HOUR),
      },
    });

    // Files of a form deleted since (its rows went with it).
    await storage.write('frm_deleted/upl_orphan', Readable.from([Buffer.from('orphan')]), 1024);

    const job = await queue.add('remove-unattached-uploads', {});
    expect(await settled(job)).toBe('completed');

    const left = await prisma.formUpload.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
    expect(left.map((row) => row.id)).toEqual(['upl_old_attached', 'upl_young']);
    expect(existsSync(join(uploadDir, 'frm_1', 'upl_old'))).toBe(false);
    expect(existsSync(join(uploadDir, 'frm_1', 'upl_old_attached'))).toBe(true);
    expect(existsSync(join(uploadDir, 'frm_1', 'upl_young'))).toBe(true);
    expect(existsSync(join(uploadDir, 'frm_deleted'))).toBe(false);
  });
});
