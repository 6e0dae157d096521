/**
 * The forms-worker's repeatable clean-up: uploads no submission refers to are removed (row and file) once older than
 * FORMS_UPLOAD_RETENTION_HOURS; attached uploads and young ones stay; files of deleted forms go. Real PostgreSQL, Redis
 * and BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FormsPrisma } from '@forms/data-access';
import { UploadStorage } from '@forms/submissions';
import { RunningWorker, startWorker } from '@shared/bootstrap';
import { FormsQueues } from '@forms/contracts';
import { createTestDatabase, TestDatabase, uniqueQueuePrefix } from '@shared/testing';
import { QUEUES, WorkerModule } from '../src/worker.module';

const HOUR = 3_600_000;

describe('forms-worker: removing unattached uploads', () => {
  let db: TestDatabase;
  let worker: RunningWorker;
  const uploadDir = mkdtempSync(join(tmpdir(), 'forms-cleanup-'));

  beforeAll(async () => {
    db = await createTestDatabase('forms');
    Object.assign(process.env, {
      NODE_ENV: 'test',
      FORMS_DATABASE_URL: db.url,
      FORMS_UPLOAD_DIR: uploadDir,
      FORMS_UPLOAD_RETENTION_HOURS: '24',
      QUEUE_PREFIX: uniqueQueuePrefix(),
      HEALTH_PORT: '0',
    });
    worker = await startWorker(WorkerModule, { service: 'forms-worker-test', defaultHealthPort: 0, queues: QUEUES });
  });
  afterAll(async () => {
    const queue = worker?.app.get<Queue>(getQueueToken(FormsQueues.formsUploadCleanup));
    await queue?.obliterate({ force: true });
    await worker?.stop();
    await db?.drop();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('is a repeatable job that removes old unattached uploads and the files of deleted forms, and keeps attached and young ones', async () => {
    const prisma = worker.app.get(FormsPrisma);
    const storage = worker.app.get(UploadStorage);
    const queue = worker.app.get<Queue>(getQueueToken(FormsQueues.formsUploadCleanup));
    expect((await queue.getJobSchedulers()).map((scheduler) => scheduler.key)).toContain('remove-unattached-uploads');

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
    for (let i = 0; i < 200 && (await job.getState()) !== 'completed'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await job.getState()).toBe('completed');

    const left = await prisma.formUpload.findMany({ select: { id: true }, orderBy: { id: 'asc' } });
    expect(left.map((row) => row.id)).toEqual(['upl_old_attached', 'upl_young']);
    expect(existsSync(join(uploadDir, 'frm_1', 'upl_old'))).toBe(false);
    expect(existsSync(join(uploadDir, 'frm_1', 'upl_old_attached'))).toBe(true);
    expect(existsSync(join(uploadDir, 'frm_1', 'upl_young'))).toBe(true);
    expect(existsSync(join(uploadDir, 'frm_deleted'))).toBe(false);
  });
});
