import { EmailPrisma, EmailSql, SubscriberStatus } from '@email/data-access';
import { AudienceRepository } from '@email/audience-engine';
import type { AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { BroadcastRecipients } from './broadcast-recipients';

const A = trustedWorkspaceId('wsp_rcpt_a');
const B = trustedWorkspaceId('wsp_rcpt_b');
const STATUSES = Object.values(SubscriberStatus);

/** The preflight count and the send's materialisation run one rule: they agree, and only Active subscribers get mail. */
describe('BroadcastRecipients (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let sql: EmailSql;
  let recipients: BroadcastRecipients;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    const config = { emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig;
    prisma = new EmailPrisma(config);
    sql = new EmailSql(config);
    recipients = new BroadcastRecipients(new AudienceRepository(prisma, sql, { now: () => new Date() }), sql);
    await prisma.workspace.createMany({ data: [A, B].map((id) => ({ id, name: id })) });
    // 60 subscribers in A cycling through every status and two countries; 10 Active ones in B.
    await prisma.subscriber.createMany({
      data: [
        ...Array.from({ length: 60 }, (_, n) => ({
          id: `sub_a_${String(n).padStart(3, '0')}`,
          workspace_id: A,
          email: `a${n}@example.com`,
          status: STATUSES[n % STATUSES.length],
          country: n % 2 ? 'DE' : 'US',
        })),
        ...Array.from({ length: 10 }, (_, n) => ({ id: `sub_b_${n}`, workspace_id: B, email: `b${n}@example.com` })),
      ],
    });
    for (const run of ['brun_all', 'brun_de', 'brun_b']) {
      const workspace = run === 'brun_b' ? B : A;
      await prisma.broadcast.create({ data: { id: `brd_${run}`, workspace_id: workspace, subject: 's', body_document: { type: 'doc' }, body: '' } });
      await prisma.broadcastRun.create({ data: { id: run, workspace_id: workspace, broadcast_id: `brd_${run}`, content_version: 1, connection_id: 'edc_x' } });
    }
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await sql?.onModuleDestroy();
    await db?.drop();
  });

  const materializeAll = async (runId: string, audience: Awaited<ReturnType<BroadcastRecipients['compile']>>, chunk: number) => {
    let after: string | null = null;
    let written = 0;
    for (;;) {
      const step = await recipients.materialize(runId, audience, after, chunk);
      written += step.inserted;
      if (step.lastSubscriberId === null) return written;
      after = step.lastSubscriberId;
    }
  };

  it('counts and materialises the same Active subscribers, in resumable chunks, never twice', async () => {
    const everyone = await recipients.compile(A, null);
    const active = Array.from({ length: 60 }, (_, n) => n).filter((n) => STATUSES[n % STATUSES.length] === 'Active');
    expect(await recipients.count(everyone)).toBe(active.length);
    expect(await materializeAll('brun_all', everyone, 7)).toBe(active.length);
    // Preparing again from the start (a retried job) writes nothing new.
    expect(await materializeAll('brun_all', everyone, 50)).toBe(0);
    const rows = await prisma.broadcastDelivery.findMany({ where: { run_id: 'brun_all' }, orderBy: { subscriber_id: 'asc' } });
    expect(rows.map((row) => row.subscriber_id)).toEqual(active.map((n) => `sub_a_${String(n).padStart(3, '0')}`));
    expect(new Set(rows.map((row) => row.state))).toEqual(new Set(['pending']));
  });

  it('applies the audience definition, and stays in its workspace', async () => {
    const germans = await recipients.compile(A, {
      match: 'all',
      groups: [{ id: 'g', match: 'all', conditions: [{ id: 'c', field: 'country', operator: 'is', value: 'DE' }] }],
    });
    const expected = Array.from({ length: 60 }, (_, n) => n).filter((n) => n % 2 === 1 && STATUSES[n % STATUSES.length] === 'Active').length;
    expect(await recipients.count(germans)).toBe(expected);
    expect(await materializeAll('brun_de', germans, 3)).toBe(expected);
    expect(await recipients.count(await recipients.compile(B, null))).toBe(10);
    expect(await materializeAll('brun_b', await recipients.compile(B, null), 4)).toBe(10);
    expect(await prisma.broadcastDelivery.count({ where: { run_id: 'brun_b', subscriber_id: { startsWith: 'sub_a' } } })).toBe(0);
  });
});
