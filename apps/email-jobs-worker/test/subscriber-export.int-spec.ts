/**
 * The email-jobs-worker's subscriber exports and the clean-up of expired files: the CSV holds every standard column,
 * the tags and the custom fields by label, with formula-like cells neutralised; the selection (search, status, cold)
 * is the list's; the file expires and the clean-up deletes it, and expired uploads with theirs. Real PostgreSQL,
 * Redis and BullMQ; the export is one COPY statement whose selection values are inlined as quoted literals.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { to as copyTo } from 'pg-copy-streams';
import { EmailQueues } from '@email/contracts';
import { EmailPrisma, EmailSql, Prisma } from '@email/data-access';
import { copyStatement, csvRecords, ExportRunner, JobFilesCleanup, safeCell, tagLookupFor } from '@email/jobs';
import { trustedWorkspaceId } from '@shared/core';
import { settled, useJobsWorker } from './worker.fixture';

const WS = 'wsp_export';
const filesDir = mkdtempSync(path.join(tmpdir(), 'postline-export-worker-'));
const DAY = 86_400_000;

async function records(bytes: Readable): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const record of csvRecords(bytes, { encoding: 'utf-8', delimiter: ',' }) as AsyncIterable<string[]>) rows.push(record);
  return rows;
}

describe('email-jobs-worker: subscriber exports', () => {
  const jobs = useJobsWorker({ SUBSCRIBER_JOB_FILES_DIR: filesDir });
  let queue: Queue;
  let prisma: EmailPrisma;
  let sequence = 0;

  beforeAll(async () => {
    queue = jobs.worker().app.get<Queue>(getQueueToken(EmailQueues.subscriberExport));
    prisma = jobs.prisma();
    await prisma.workspace.create({ data: { id: WS, name: 'Exports' } });
    await prisma.customField.create({
      data: { id: 'cf_color', workspace_id: WS, label: 'Favorite color', label_key: 'favorite color', type: 'Text', options: [] },
    });
    await prisma.customField.create({
      data: { id: 'cf_sizes', workspace_id: WS, label: 'Sizes', label_key: 'sizes', type: 'Multi_Select', options: ['S', 'M'] },
    });
    await prisma.tag.create({ data: { id: 'tag_b', workspace_id: WS, name: 'Beta', name_key: 'beta' } });
    await prisma.tag.create({ data: { id: 'tag_a', workspace_id: WS, name: 'Alpha', name_key: 'alpha' } });
    const old = new Date(Date.now() - 200 * DAY);
    await prisma.subscriber.createMany({
      data: [
        {
          id: 'sub_1',
          workspace_id: WS,
          email: 'ann@example.com',
          name: '=HYPERLINK("http://evil")',
          country: 'DE',
          custom_fields: { cf_color: '+blue', cf_sizes: ['S', 'M'] },
        },
        { id: 'sub_2', workspace_id: WS, email: 'bob@example.com', name: 'Bob, "the" builder', status: 'Unsubscribed', subscribed_at: old },
        { id: 'sub_3', workspace_id: WS, email: 'cold@example.com', name: '@cold', subscribed_at: old },
        { id: 'sub_4', workspace_id: WS, email: 'clicker@example.com', name: 'Clicker', subscribed_at: old },
      ],
    });
    await prisma.subscriberTag.createMany({ data: ['tag_b', 'tag_a'].map((tag_id) => ({ workspace_id: WS, subscriber_id: 'sub_1', tag_id })) });
    await prisma.subscriberEngagement.create({
      data: { subscriber_id: 'sub_4', workspace_id: WS, last_clicked_at: new Date(Date.now() - 10 * DAY), windows_as_of: new Date() },
    });
  });

  afterAll(() => rmSync(filesDir, { recursive: true, force: true }));

  async function exported(
    selection: { query?: string; status_filter?: 'Unsubscribed'; cold_only?: boolean } = {},
    workspaceId = WS,
  ): Promise<{ rows: string[][]; jobId: string }> {
    const jobId = `exp_${++sequence}`;
    await prisma.subscriberExportJob.create({ data: { id: jobId, workspace_id: workspaceId, ...selection } });
    expect(await settled(await queue.add('export', { workspaceId, jobId }, { jobId }))).toBe('completed');
    const job = await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: jobId } });
    expect(job).toMatchObject({
      status: 'Completed',
      file_name: `subscribers-${job.completed_at!.toISOString().slice(0, 10)}-${jobId}.csv`,
      expires_at: expect.any(Date),
    });
    const rows: string[][] = [];
    rows.push(...(await records(createReadStream(path.join(filesDir, 'exports', workspaceId, `${jobId}.csv`)))));
    expect(job.exported_count).toBe(rows.length - 1);
    return { rows, jobId };
  }

  it('writes every standard column, the tags and the custom fields by label, neutralising formula-like cells', async () => {
    const { rows } = await exported();
    expect(rows[0]).toEqual([
      'id',
      'email',
      'name',
      'status',
      'country',
      'subscribed_at',
      'last_opened_at',
      'created_at',
      'updated_at',
      'tags',
      'Favorite color',
      'Sizes',
    ]);
    const ann = rows.find((row) => row[0] === 'sub_1')!;
    expect(ann.slice(1, 5)).toEqual(['ann@example.com', `'=HYPERLINK("http://evil")`, 'Active', 'DE']);
    expect(ann.slice(9)).toEqual(['Alpha, Beta', `'+blue`, 'S, M']);
    expect(rows.find((row) => row[0] === 'sub_2')![2]).toBe('Bob, "the" builder');
    expect(rows.find((row) => row[0] === 'sub_3')![2]).toBe(`'@cold`);
    expect(rows.length).toBe(5);
  });

  it('writes each cell as the JavaScript formatter would (safeCell, toISOString), whichever way the tags are looked up', async () => {
    const cells = 'wsp_export_cells';
    await prisma.workspace.create({ data: { id: cells, name: 'Export cells' } });
    await prisma.customField.createMany({
      data: [
        { id: 'cf_c_note', workspace_id: cells, label: 'Note', label_key: 'note', type: 'Text', options: [] },
        { id: 'cf_c_score', workspace_id: cells, label: 'Score', label_key: 'score', type: 'Number', options: [] },
        { id: 'cf_c_sizes', workspace_id: cells, label: 'Sizes', label_key: 'sizes', type: 'Multi_Select', options: ['=x', 'b', 'S'] },
      ],
    });
    await prisma.tag.createMany({
      data: ['zeta', 'alpha', 'beta'].map((name) => ({ id: `tag_c_${name}`, workspace_id: cells, name, name_key: name })),
    });
    const at = (text: string) => new Date(text);
    const subscribers = [
      {
        id: 'sub_c1',
        email: 'a@example.com',
        name: '-1+2',
        country: 'FR',
        custom_fields: { cf_c_note: '@sum', cf_c_score: 42, cf_c_sizes: ['=x', 'b'] },
        subscribed_at: at('2026-01-02T03:04:05.000Z'),
        last_opened_at: at('2026-01-02T03:04:05.120Z'),
        tags: ['zeta', 'alpha', 'beta'],
      },
      { id: 'sub_c2', email: 'b@example.com', name: '\tTab', custom_fields: { cf_c_note: '', cf_c_score: null, cf_c_sizes: 'S' }, tags: ['beta'] },
      { id: 'sub_c3', email: 'c@example.com', name: '\rcr', custom_fields: { cf_c_sizes: [] }, tags: [] },
      { id: 'sub_c4', email: 'd@example.com', name: 'plain, "quoted"\nline', custom_fields: { cf_c_note: '+1', cf_c_sizes: ['-'] }, tags: ['=tag'] },
    ];
    await prisma.tag.create({ data: { id: 'tag_c_formula', workspace_id: cells, name: '=tag', name_key: '=tag' } });
    for (const { tags, ...subscriber } of subscribers) {
      await prisma.subscriber.create({ data: { ...subscriber, workspace_id: cells, updated_at: at('2026-03-04T05:06:07.890Z') } });
      for (const name of tags) {
        const tag_id = name === '=tag' ? 'tag_c_formula' : `tag_c_${name}`;
        await prisma.subscriberTag.create({ data: { workspace_id: cells, subscriber_id: subscriber.id, tag_id } });
      }
    }
    const saved = await prisma.subscriber.findMany({ where: { workspace_id: cells }, orderBy: { id: 'asc' } });
    const iso = (date: Date | null) => date?.toISOString() ?? '';
    const expected = saved.map((row) => {
      const fields = row.custom_fields as Record<string, unknown>;
      return [
        row.id,
        safeCell(row.email),
        safeCell(row.name),
        row.status,
        row.country ?? '',
        iso(row.subscribed_at),
        iso(row.last_opened_at),
        iso(row.created_at),
        iso(row.updated_at),
        safeCell([...subscribers.find((s) => s.id === row.id)!.tags].sort()),
        safeCell(fields.cf_c_note),
        safeCell(fields.cf_c_score),
        safeCell(fields.cf_c_sizes),
      ];
    });
    expect(expected[0].slice(1, 3)).toEqual(['a@example.com', `'-1+2`]);
    expect(expected[0].slice(9)).toEqual(['alpha, beta, zeta', `'@sum`, '42', `'=x, b`]);

    const { rows } = await exported({}, cells);
    expect(rows.slice(1)).toEqual(expected);
    const sql = jobs.worker().app.get(EmailSql);
    const fields = [
      { id: 'cf_c_note', type: 'Text' },
      { id: 'cf_c_score', type: 'Number' },
      { id: 'cf_c_sizes', type: 'Multi_Select' },
    ];
    for (const lookup of ['per-row', 'one-pass'] as const) {
      const bytes = await sql.transaction(async (client) => {
        const copy = client.query(copyTo(copyStatement(client, cells, Prisma.sql`s.workspace_id = ${cells}`, fields, lookup)));
        return Buffer.concat(await copy.toArray());
      });
      expect(await records(Readable.from([bytes]))).toEqual(expected);
    }
  });

  it('looks the tags up per row for a search or a small workspace among large ones, and in one pass for a whole list', async () => {
    /** A workspace of `count` subscribers, each with one tag. */
    const workspaceOf = async (id: string, count: number) => {
      await prisma.workspace.create({ data: { id, name: id } });
      await prisma.tag.create({ data: { id: `tag_${id}`, workspace_id: id, name: 'everyone', name_key: 'everyone' } });
      await prisma.$executeRaw`INSERT INTO subscribers (id, workspace_id, email, updated_at)
        SELECT 'sub_' || ${id} || '_' || lpad(i::text, 5, '0'), ${id}, 'share' || i || '@example.com', now() FROM generate_series(1, ${count}::int) AS i`;
      await prisma.$executeRaw`INSERT INTO subscriber_tags (subscriber_id, tag_id, workspace_id)
        SELECT id, ${`tag_${id}`}, ${id} FROM subscribers WHERE workspace_id = ${id}`;
    };
    await workspaceOf('wsp_lookup_mid', 2_000);
    await workspaceOf('wsp_lookup_tiny', 10);
    // The pass scans every workspace's memberships: this one's make it too dear for the tiny workspace, not for the others.
    await workspaceOf('wsp_lookup_large', 20_000);
    await prisma.$executeRaw`ANALYZE subscribers`;
    await prisma.$executeRaw`ANALYZE subscriber_tags`;
    const sql = jobs.worker().app.get(EmailSql);
    const lookup = (workspaceId: string, where: Prisma.Sql = Prisma.empty) =>
      sql.transaction((client) => tagLookupFor(client, workspaceId, Prisma.sql`s.workspace_id = ${workspaceId} ${where}`));

    expect(await lookup('wsp_lookup_mid')).toBe('one-pass');
    expect(await lookup('wsp_lookup_mid', Prisma.sql`AND s.email = ${'share7@example.com'}`)).toBe('per-row');
    expect(await lookup('wsp_lookup_tiny')).toBe('per-row');
    expect(await lookup('wsp_lookup_large')).toBe('one-pass');
  });

  it('rolls back and gives its connection back when the file cannot be written, and a rerun writes it', async () => {
    const broken = 'wsp_export_broken';
    await prisma.workspace.create({ data: { id: broken, name: 'Broken storage' } });
    // More rows than the socket buffers hold, so the COPY is still sending when the write fails (before the fix, for ever).
    await prisma.$executeRaw`INSERT INTO subscribers (id, workspace_id, email, updated_at)
      SELECT 'sub_brk_' || lpad(i::text, 6, '0'), ${broken}, 'brk' || i || '@example.com', now() FROM generate_series(1, 50000) AS i`;
    await prisma.subscriberExportJob.create({ data: { id: 'exp_broken', workspace_id: broken } });
    // A file where the workspace's folder would go: the write fails before it reads anything of the COPY.
    mkdirSync(path.join(filesDir, 'exports'), { recursive: true });
    writeFileSync(path.join(filesDir, 'exports', broken), 'not a folder');
    const runner = jobs.worker().app.get(ExportRunner);
    await expect(runner.run(trustedWorkspaceId(broken), 'exp_broken')).rejects.toThrow(/EEXIST|ENOTDIR/);
    rmSync(path.join(filesDir, 'exports', broken));
    expect(await runner.run(trustedWorkspaceId(broken), 'exp_broken')).toBe('completed');
    expect((await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: 'exp_broken' } })).exported_count).toBe(50_000);
  });

  it('selects like the subscriber list (search, status), and cold as no human open or click in 90 days', async () => {
    expect((await exported({ query: 'BOB' })).rows.slice(1).map((row) => row[0])).toEqual(['sub_2']);
    expect((await exported({ status_filter: 'Unsubscribed' })).rows.slice(1).map((row) => row[0])).toEqual(['sub_2']);
    expect((await exported({ cold_only: true })).rows.slice(1).map((row) => row[0])).toEqual(['sub_2', 'sub_3']);
  });

  it('streams a large export', async () => {
    await prisma.subscriber.createMany({
      data: Array.from({ length: 12_000 }, (_, i) => ({ id: `sub_bulk_${String(i).padStart(5, '0')}`, workspace_id: WS, email: `bulk${i}@example.com` })),
    });
    const { rows } = await exported({ query: 'bulk' });
    expect(rows.length).toBe(12_001);
    expect(new Set(rows.slice(1).map((row) => row[0])).size).toBe(12_000);
  });

  it('matches a search with quotes and backslashes literally', async () => {
    await prisma.subscriber.create({ data: { id: 'sub_quote', workspace_id: WS, email: 'darcy@example.com', name: "D'Arcy \\ Smith" } });
    expect((await exported({ query: "'arcy \\" })).rows.slice(1).map((row) => row[0])).toEqual(['sub_quote']);
    expect((await exported({ query: "' OR '1'='1" })).rows.slice(1)).toEqual([]);
  });

  it('cleans up expired export files and uploads, keeping an upload whose import is still running', async () => {
    const { jobId } = await exported({ query: 'ann' });
    await prisma.subscriberExportJob.update({ where: { id: jobId }, data: { expires_at: new Date(Date.now() - 1000) } });
    mkdirSync(path.join(filesDir, 'imports', WS), { recursive: true });
    for (const [id, jobStatus] of [
      ['imu_done', 'Completed'],
      ['imu_running', 'Processing'],
    ] as const) {
      writeFileSync(path.join(filesDir, 'imports', WS, `${id}.csv`), 'email\n');
      await prisma.subscriberImportUpload.create({
        data: {
          id,
          workspace_id: WS,
          status: 'Queued',
          token_hash: id,
          link_expires_at: new Date(),
          expires_at: new Date(Date.now() - 1000),
          import_job_id: `imp_${id}`,
        },
      });
      await prisma.subscriberImportJob.create({ data: { id: `imp_${id}`, workspace_id: WS, upload_id: id, status: jobStatus, request: {} } });
    }
    expect(await jobs.worker().app.get(JobFilesCleanup).run()).toEqual({ exports: 1, uploads: 1 });
    expect(existsSync(path.join(filesDir, 'exports', WS, `${jobId}.csv`))).toBe(false);
    expect((await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: jobId } })).file_deleted_at).not.toBeNull();
    expect(existsSync(path.join(filesDir, 'imports', WS, 'imu_done.csv'))).toBe(false);
    expect(existsSync(path.join(filesDir, 'imports', WS, 'imu_running.csv'))).toBe(true);
    expect(await prisma.subscriberImportUpload.findMany({ where: { workspace_id: WS }, select: { id: true } })).toEqual([{ id: 'imu_running' }]);
  });
});
