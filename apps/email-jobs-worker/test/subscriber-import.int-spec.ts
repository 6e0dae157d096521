/**
 * The email-jobs-worker's subscriber imports on real files (UTF-16 with semicolons, a UTF-8 file with quoted line
 * breaks): rows checked with the upsert's rules and rejected with row number, column and reason; blank cells leave
 * saved values; in-file duplicates (the last row wins); exact tag counts; one outbox event per change of a type a
 * webhook subscription selects, and none of the others; a dry run that writes nothing; a job stopped mid-file that
 * resumes without losing, duplicating or double-counting; a corrupt file failing with its line. Real PostgreSQL, Redis
 * and BullMQ; batches of two rows in two lanes, so every file spans several batches written at once.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { EmailQueues } from '@email/contracts';
import { EmailPrisma } from '@email/data-access';
import { detectFormat, ImportRunner } from '@email/jobs';
import { trustedWorkspaceId } from '@shared/core';
import { settled, useJobsWorker } from './worker.fixture';

const WS = 'wsp_import';
const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-import-worker-'));

describe('email-jobs-worker: subscriber imports', () => {
  const jobs = useJobsWorker({ SUBSCRIBER_JOB_FILES_DIR: filesDir, SUBSCRIBER_IMPORT_BATCH_ROWS: '2' });
  let queue: Queue;
  let prisma: EmailPrisma;
  let sequence = 0;

  beforeAll(async () => {
    queue = jobs.worker().app.get<Queue>(getQueueToken(EmailQueues.subscriberImport));
    prisma = jobs.prisma();
    await prisma.workspace.create({ data: { id: WS, name: 'Imports' } });
    await prisma.customField.create({ data: { id: 'cf_size', workspace_id: WS, label: 'Size', label_key: 'size', type: 'Number', options: [] } });
    await prisma.tag.create({ data: { id: 'tag_vip', workspace_id: WS, name: 'VIP', name_key: 'vip' } });
    await prisma.subscriber.create({
      data: { id: 'sub_old', workspace_id: WS, email: 'old@example.com', name: 'Old Name', country: 'FR', custom_fields: { cf_size: 3 } },
    });
    await prisma.subscriber.create({ data: { id: 'sub_gone', workspace_id: WS, email: 'gone@example.com', status: 'Unsubscribed' } });
    await subscribeToEvents(WS, 'subscriber.*');
  });

  /** An active webhook subscription (never delivered here: no webhook worker runs), so the import writes the events it selects. */
  const subscribeToEvents = (workspaceId: string, ...patterns: string[]) =>
    prisma.webhookSubscription.create({
      data: {
        id: `whs_${workspaceId}`,
        workspace_id: workspaceId,
        name: 'Import events',
        url: 'http://127.0.0.1:9/hook',
        event_patterns: patterns,
        signing_secret: 'sealed',
        signing_secret_preview: 'whsec_…',
      },
    });

  afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

  const MAPPINGS = [
    { csv_column: 'E-mail', field: { type: 'email' } },
    { csv_column: 'Name', field: { type: 'name' } },
    { csv_column: 'Land', field: { type: 'country' } },
    { csv_column: 'Status', field: { type: 'subscriber-status' } },
    { csv_column: 'Size', field: { type: 'custom-field', custom_field_id: 'cf_size' } },
  ];

  /** Stores the file as an upload would, and the job as the API would; returns the job id. */
  async function importJob(bytes: Buffer, options: { dryRun?: boolean; tagIds?: string[] } = {}): Promise<string> {
    const id = `imp_${++sequence}`;
    const uploadId = `imu_${sequence}`;
    mkdirSync(path.join(filesDir, 'imports', WS), { recursive: true });
    writeFileSync(path.join(filesDir, 'imports', WS, `${uploadId}.csv`), bytes);
    const format = detectFormat(bytes.subarray(0, 65536));
    await prisma.subscriberImportUpload.create({
      data: {
        id: uploadId,
        workspace_id: WS,
        status: 'Queued',
        token_hash: `hash_${sequence}`,
        link_expires_at: new Date(Date.now() + 60_000),
        expires_at: new Date(Date.now() + 3_600_000),
        ...format,
        headers: ['E-mail', 'Name', 'Land', 'Status', 'Size'],
      },
    });
    const request = { mappings: MAPPINGS, tag_ids: options.tagIds ?? [], new_tag_name: null, sequence_ids: [] };
    await prisma.subscriberImportJob.create({ data: { id, workspace_id: WS, upload_id: uploadId, dry_run: options.dryRun ?? false, request } });
    return id;
  }

  async function runQueued(jobId: string) {
    expect(await settled(await queue.add('import', { workspaceId: WS, jobId }, { jobId }))).toBe('completed');
    return prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: jobId }, include: { rejections: { orderBy: { row_number: 'asc' } } } });
  }

  const tagCount = async (tagId: string) => {
    const tag = await prisma.tag.findUniqueOrThrow({ where: { id: tagId }, include: { count_shards: true } });
    return tag.count_shards.reduce((sum, shard) => sum + shard.delta, tag.subscriber_count);
  };

  const FILE = [
    'E-mail;Name;Land;Status;Size',
    'new.one@example.com;"New; One";Germany;;7',
    'OLD@example.com;;;;', // blank cells: the saved name, country and size stay
    'not-an-email;X;DE;;1',
    'bad.country@example.com;Y;Atlantis;;1',
    'bad.size@example.com;Z;DE;;lots',
    'gone@example.com;;;Active;', // re-activating an unsubscribed subscriber needs consent evidence
    'twice@example.com;First;DE;;1',
    'twice@example.com;Second;DE;;2', // the last row of an email wins
  ].join('\r\n');

  it('imports an Excel UTF-16 semicolon file, rejecting rows with their row number, column and reason', async () => {
    const jobId = await importJob(Buffer.from(`\uFEFF${FILE}\r\n`, 'utf16le'), { tagIds: ['tag_vip'] });
    const job = await runQueued(jobId);
    expect(job).toMatchObject({ status: 'Completed', error_message: null, processed_rows: 8, created_count: 2, updated_count: 0, unchanged_count: 1 });
    expect(job).toMatchObject({ rejected_count: 4, duplicate_count: 1 });
    expect(job.rejections.map(({ row_number, csv_column, code }) => [row_number, csv_column, code])).toEqual([
      [3, 'E-mail', 'invalid_email'],
      [4, 'Land', 'invalid_country'],
      [5, 'Size', 'invalid_custom_field_value'],
      [6, 'Status', 'consent_evidence_required'],
    ]);
    expect(job.rejections[2].reason).toBe('Size must be a number.');

    const subscribers = await prisma.subscriber.findMany({ where: { workspace_id: WS }, orderBy: { email: 'asc' } });
    expect(subscribers.map(({ email, name, country, status, custom_fields }) => ({ email, name, country, status, custom_fields }))).toEqual([
      { email: 'gone@example.com', name: '', country: null, status: 'Unsubscribed', custom_fields: {} },
      { email: 'new.one@example.com', name: 'New; One', country: 'DE', status: 'Active', custom_fields: { cf_size: 7 } },
      { email: 'old@example.com', name: 'Old Name', country: 'FR', status: 'Active', custom_fields: { cf_size: 3 } },
      { email: 'twice@example.com', name: 'Second', country: 'DE', status: 'Active', custom_fields: { cf_size: 2 } },
    ]);
    expect(await tagCount('tag_vip')).toBe(3);
    expect(await prisma.subscriberTag.count({ where: { tag_id: 'tag_vip' } })).toBe(3);
    const events = await prisma.outboxEvent.findMany({ where: { workspace_id: WS }, orderBy: { type: 'asc' } });
    expect(events.map((event) => event.type)).toEqual(['subscriber.created', 'subscriber.created', 'subscriber.updated']);
  });

  it('updates on a second import of the same rows, keeping tag counts exact, and a dry run writes nothing', async () => {
    const file = Buffer.from('E-mail,Name,Land,Status,Size\nnew.one@example.com,"Renamed\nTwice",,,\nfresh@example.com,Fresh,,,\n');
    const dry = await runQueued(await importJob(file, { dryRun: true, tagIds: ['tag_vip'] }));
    expect(dry).toMatchObject({ status: 'Completed', created_count: 1, updated_count: 1, rejected_count: 0 });
    expect(await prisma.subscriber.count({ where: { workspace_id: WS, email: 'fresh@example.com' } })).toBe(0);
    expect(await tagCount('tag_vip')).toBe(3);

    const real = await runQueued(await importJob(file, { tagIds: ['tag_vip'] }));
    expect(real).toMatchObject({ status: 'Completed', created_count: 1, updated_count: 1, unchanged_count: 0 });
    expect((await prisma.subscriber.findFirstOrThrow({ where: { workspace_id: WS, email: 'new.one@example.com' } })).name).toBe('Renamed\nTwice');
    expect(await tagCount('tag_vip')).toBe(4);
  });

  /** Runs the job in this process until it "dies" in its third batch: the batches before it committed, the third not. */
  async function stopInThirdBatch(jobId: string) {
    const runner = jobs.worker().app.get(ImportRunner);
    const writer = (runner as unknown as { writer: { write: (...args: unknown[]) => Promise<unknown> } }).writer;
    const write = writer.write.bind(writer);
    let batches = 0;
    const spy = jest.spyOn(writer, 'write').mockImplementation(async (...args: unknown[]) => {
      if (++batches === 3) throw new Error('killed');
      return write(...args);
    });
    await expect(runner.run(trustedWorkspaceId(WS), jobId)).rejects.toThrow('killed');
    spy.mockRestore();
    const stopped = await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(stopped).toMatchObject({ status: 'Processing' });
    expect(stopped.processed_rows).toBeGreaterThan(0);
    expect(stopped.processed_rows).toBeLessThan(9);
    // The run ended only once the other lane's write did: nothing commits after it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      processed_rows: stopped.processed_rows,
      lane_rows: stopped.lane_rows,
    });
    return stopped;
  }

  const nineRows = (prefix: string) =>
    Buffer.from(`E-mail,Name,Land,Status,Size\n${Array.from({ length: 9 }, (_, i) => `${prefix}${i}@example.com,R${i},,,`).join('\n')}\n`);

  it('resumes a job stopped mid-file without losing, duplicating or double-counting rows', async () => {
    const jobId = await importJob(nineRows('resume'), { tagIds: ['tag_vip'] });
    await stopInThirdBatch(jobId);

    const job = await runQueued(jobId);
    expect(job).toMatchObject({ status: 'Completed', processed_rows: 9, created_count: 9, rejected_count: 0 });
    expect(await prisma.subscriber.count({ where: { workspace_id: WS, email: { startsWith: 'resume' } } })).toBe(9);
    expect(await tagCount('tag_vip')).toBe(4 + 9);
    const created = await prisma.outboxEvent.count({ where: { workspace_id: WS, type: 'subscriber.created' } });
    expect(created).toBe(2 + 1 + 9);
  });

  it('resumes from the committed checkpoints even when the run read the job before they were written', async () => {
    const jobId = await importJob(nineRows('stale'));
    const stopped = await stopInThirdBatch(jobId);
    const runner = jobs.worker().app.get(ImportRunner);
    // A copy of the job as it was before its first run: no lanes yet, nothing processed.
    const stale = { ...stopped, status: 'Queued', lane_rows: [], processed_rows: 0, created_count: 0 };
    const read = jest.spyOn(prisma.subscriberImportJob, 'findFirst').mockResolvedValueOnce(stale);
    try {
      await expect(runner.run(trustedWorkspaceId(WS), jobId)).resolves.toBe('completed');
    } finally {
      read.mockRestore();
    }
    expect(await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: jobId } })).toMatchObject({
      status: 'Completed',
      processed_rows: 9,
      created_count: 9,
      updated_count: 0,
      unchanged_count: 0,
    });
    expect(await prisma.subscriber.count({ where: { workspace_id: WS, email: { startsWith: 'stale' } } })).toBe(9);
  });

  it('fails a corrupt file with the line where it went wrong, keeping the rows before it', async () => {
    const job = await runQueued(
      await importJob(Buffer.from('E-mail,Name,Land,Status,Size\nok1@example.com,A,,,\nok2@example.com,B,,,\nok3@example.com,"C,,,\n')),
    );
    expect(job.status).toBe('Failed');
    expect(job.error_message).toMatch(/line 4/);
    expect(job.processed_rows).toBe(2);
  });

  it('retries a batch whose new subscriber another writer created meanwhile, reading it as existing', async () => {
    const other = new Client({ connectionString: process.env.EMAIL_DATABASE_URL });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO subscribers (id, workspace_id, email, name, created_at, updated_at) VALUES ('sub_race', $1, 'race@example.com', 'Racer', now(), now())`,
        [WS],
      );
      const jobId = await importJob(Buffer.from('E-mail,Name,Land,Status,Size\nrace@example.com,Imported,,,\n'), { tagIds: ['tag_vip'] });
      const job = runQueued(jobId);
      // The import did not see the uncommitted row; its insert now waits on it, and fails once it commits.
      let waiting = false;
      for (let i = 0; i < 200 && !waiting; i++) {
        const rows = await prisma.$queryRaw<Array<{ n: number }>>`
          SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO subscribers%'`;
        waiting = rows[0].n === 1;
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(waiting).toBe(true);
      await other.query('COMMIT');
      expect(await job).toMatchObject({ status: 'Completed', created_count: 0, updated_count: 1, rejected_count: 0 });
      // The batch was retried inside the run, not by the queue after a failed attempt.
      expect((await queue.getJob(jobId))!.stacktrace).toEqual([]);
      expect(await prisma.subscriber.findFirstOrThrow({ where: { workspace_id: WS, email: 'race@example.com' } })).toMatchObject({
        id: 'sub_race',
        name: 'Imported',
      });
      expect(await tagCount('tag_vip')).toBe(4 + 9 + 1);
      expect(await prisma.subscriberTag.count({ where: { tag_id: 'tag_vip' } })).toBe(4 + 9 + 1);
    } finally {
      await other.end();
    }
  });

  it('writes only the events an active webhook subscription selects', async () => {
    const counts = async () =>
      Object.fromEntries(
        (await prisma.outboxEvent.groupBy({ by: ['type'], where: { workspace_id: WS }, _count: true })).map((group) => [group.type, group._count]),
      );
    const before = await counts();
    await prisma.webhookSubscription.update({ where: { id: `whs_${WS}` }, data: { event_patterns: ['subscriber.updated'] } });
    const file = (name: string) => Buffer.from(`E-mail,Name,Land,Status,Size\nquiet.${name}@example.com,New,,,\nfresh@example.com,${name},,,\n`);
    expect(await runQueued(await importJob(file('one')))).toMatchObject({ status: 'Completed', created_count: 1, updated_count: 1 });
    expect(await counts()).toEqual({ ...before, 'subscriber.updated': before['subscriber.updated'] + 1 });

    await prisma.webhookSubscription.update({ where: { id: `whs_${WS}` }, data: { status: 'disabled' } });
    expect(await runQueued(await importJob(file('two')))).toMatchObject({ status: 'Completed', created_count: 1, updated_count: 1 });
    expect(await counts()).toEqual({ ...before, 'subscriber.updated': before['subscriber.updated'] + 1 });
  });

  it('rejects a row whose mapped cell holds a NUL byte, as the upsert refuses one, in the dry run and the import alike', async () => {
    const file = Buffer.from('E-mail,Name,Land,Status,Size\nnul\0mail@example.com,N,,,\nnul.name@example.com,Ab\0c,,,\nnul.free@example.com,Ok,,,\n');
    const rejected = [
      [1, 'E-mail', 'invalid_characters'],
      [2, 'Name', 'invalid_characters'],
    ];
    for (const dryRun of [true, false]) {
      const job = await runQueued(await importJob(file, { dryRun }));
      expect(job).toMatchObject({ status: 'Completed', error_message: null, created_count: 1, rejected_count: 2 });
      expect(job.rejections.map(({ row_number, csv_column, code }) => [row_number, csv_column, code])).toEqual(rejected);
    }
    expect(await prisma.subscriber.count({ where: { workspace_id: WS, email: { startsWith: 'nul' } } })).toBe(1);
  });

  it('fails the job when a mapped custom field changed type after the rows were checked against it', async () => {
    const runner = jobs.worker().app.get(ImportRunner);
    const repository = (runner as unknown as { jobs: { customFieldDefinitions: (...args: unknown[]) => Promise<Map<string, unknown>> } }).jobs;
    // The job read its definitions before the change: Size was still Text, so "big" passed the check.
    const stale = jest
      .spyOn(repository, 'customFieldDefinitions')
      .mockResolvedValueOnce(new Map([['cf_size', { id: 'cf_size', type: 'Text' as const, options: [] }]]));
    try {
      const job = await runQueued(await importJob(Buffer.from('E-mail,Name,Land,Status,Size\nstale.type@example.com,S,,,big\n')));
      expect(job).toMatchObject({ status: 'Failed', created_count: 0 });
      expect(job.error_message).toMatch(/custom field cf_size was changed or deleted during the import/);
      expect(await prisma.subscriber.count({ where: { workspace_id: WS, email: 'stale.type@example.com' } })).toBe(0);
    } finally {
      stale.mockRestore();
    }
  });
});
