/**
 * email-jobs-worker with SUBSCRIBER_JOB_FILES_STORAGE=s3, against a fake S3 on loopback: an import reads its upload
 * from the bucket and an export writes its CSV there, under the configured key prefix; a refused write ends the export
 * and its multipart upload. Real PostgreSQL, Redis, BullMQ.
 */
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { EmailQueues } from '@email/contracts';
import { EmailPrisma } from '@email/data-access';
import { ExportRunner } from '@email/jobs';
import { trustedWorkspaceId } from '@shared/core';
import { FakeS3Server } from '../../../libs/email/jobs/src/testing/fake-s3-server.fixture';
import { settled, useJobsWorker } from './worker.fixture';

const WS = 'wsp_s3';
const fake = new FakeS3Server('postline-jobs', 'AKIAWORKERTEST');
const env: Record<string, string> = {
  SUBSCRIBER_JOB_FILES_STORAGE: 's3',
  SUBSCRIBER_JOB_FILES_S3_BUCKET: 'postline-jobs',
  SUBSCRIBER_JOB_FILES_S3_FORCE_PATH_STYLE: 'true',
  SUBSCRIBER_JOB_FILES_S3_ACCESS_KEY_ID: 'AKIAWORKERTEST',
  SUBSCRIBER_JOB_FILES_S3_SECRET_ACCESS_KEY: 'worker-test-secret',
  SUBSCRIBER_JOB_FILES_S3_KEY_PREFIX: 'tenant-files/',
};

describe('email-jobs-worker: job files in S3', () => {
  // Registered before the worker fixture's hook, so the worker starts with the fake's address.
  beforeAll(async () => {
    env.SUBSCRIBER_JOB_FILES_S3_ENDPOINT = await fake.start();
  });
  const jobs = useJobsWorker(env);
  let prisma: EmailPrisma;

  beforeAll(async () => {
    prisma = jobs.prisma();
    await prisma.workspace.create({ data: { id: WS, name: 'S3' } });
  });
  afterAll(() => fake.stop());

  const run = async (queue: string, name: string, jobId: string) => {
    const job = await jobs.worker().app.get<Queue>(getQueueToken(queue)).add(name, { workspaceId: WS, jobId }, { jobId });
    expect(await settled(job)).toBe('completed');
  };

  it('imports an upload read from the bucket, and exports a CSV into it', async () => {
    fake.objects.set(`tenant-files/imports/${WS}/imu_s3.csv`, Buffer.from('email,name\nann@example.com,Ann\nbob@example.com,Bob\n'));
    await prisma.subscriberImportUpload.create({
      data: {
        id: 'imu_s3',
        workspace_id: WS,
        status: 'Queued',
        token_hash: 'hash_s3',
        link_expires_at: new Date(),
        expires_at: new Date(Date.now() + 3_600_000),
        encoding: 'utf-8',
        delimiter: ',',
        headers: ['email', 'name'],
      },
    });
    const request = {
      mappings: [
        { csv_column: 'email', field: { type: 'email' } },
        { csv_column: 'name', field: { type: 'name' } },
      ],
      tag_ids: [],
      new_tag_name: null,
      sequence_ids: [],
    };
    await prisma.subscriberImportJob.create({ data: { id: 'imp_s3', workspace_id: WS, upload_id: 'imu_s3', request } });
    await run(EmailQueues.subscriberImport, 'import', 'imp_s3');
    expect(await prisma.subscriberImportJob.findUniqueOrThrow({ where: { id: 'imp_s3' } })).toMatchObject({ status: 'Completed', created_count: 2 });

    await prisma.subscriberExportJob.create({ data: { id: 'exp_s3', workspace_id: WS } });
    await run(EmailQueues.subscriberExport, 'export', 'exp_s3');
    expect(await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: 'exp_s3' } })).toMatchObject({ status: 'Completed', exported_count: 2 });
    const csv = fake.objects.get(`tenant-files/exports/${WS}/exp_s3.csv`)!.toString('utf8').split('\n');
    expect(csv[0]).toMatch(/^id,email,name,status/);
    expect(csv.slice(1, 3).map((line) => line.split(',').slice(1, 3))).toEqual(
      expect.arrayContaining([
        ['ann@example.com', 'Ann'],
        ['bob@example.com', 'Bob'],
      ]),
    );
    expect(fake.requests.every((request) => request.authorization.includes('Credential=AKIAWORKERTEST/'))).toBe(true);
  });

  it('stops an export whose file the bucket refuses mid-stream, aborting the upload and giving back its connection', async () => {
    const big = 'wsp_s3_big';
    await prisma.workspace.create({ data: { id: big, name: 'Big' } });
    // About 20 MB of CSV: past the first 8 MiB part, so the bucket refuses it while the COPY is still sending.
    await prisma.$executeRaw`INSERT INTO subscribers (id, workspace_id, email, name, updated_at)
      SELECT 'sub_big_' || lpad(i::text, 6, '0'), ${big}, 'big' || i || '@example.com', repeat('n', 150), now() FROM generate_series(1, 100000) AS i`;
    await prisma.subscriberExportJob.create({ data: { id: 'exp_s3_big', workspace_id: big } });
    const runner = jobs.worker().app.get(ExportRunner);

    fake.refuseWrites = true;
    await expect(runner.run(trustedWorkspaceId(big), 'exp_s3_big')).rejects.toThrow(/AccessDenied/);
    fake.refuseWrites = false;
    const copying = await prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND state <> 'idle' AND query LIKE 'COPY%'`;
    expect(copying).toEqual([{ n: 0 }]);
    expect(fake.requests.some((request) => request.operation === 'AbortMultipartUpload')).toBe(true);
    expect(fake.uploads.size).toBe(0);
    expect(fake.objects.has(`tenant-files/exports/${big}/exp_s3_big.csv`)).toBe(false);

    expect(await runner.run(trustedWorkspaceId(big), 'exp_s3_big')).toBe('completed');
    expect(await prisma.subscriberExportJob.findUniqueOrThrow({ where: { id: 'exp_s3_big' } })).toMatchObject({ status: 'Completed', exported_count: 100_000 });
    const csv = fake.objects.get(`tenant-files/exports/${big}/exp_s3_big.csv`)!.toString('utf8');
    expect(csv.trimEnd().split('\n')).toHaveLength(100_001);
  });
});
