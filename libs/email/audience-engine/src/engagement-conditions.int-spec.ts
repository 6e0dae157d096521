/**
 * Engagement conditions over events recorded by the writer: what a person did counts, what a privacy proxy or a
 * scanner fetched does not. Real PostgreSQL.
 */
import { EmailPrisma, EmailSql } from '@email/data-access';
import type { AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import type { AudienceCondition, AudienceDefinition } from './audience-definition';
import { AudienceRepository } from './audience.repository';
import { EmailEventPartitions, EngagementEventInput, EngagementRepository } from './engagement';

const WORKSPACE = trustedWorkspaceId('wsp_engaged');
const NOW = new Date('2026-06-15T12:00:00.000Z');
const minutes = (n: number) => new Date(NOW.getTime() - n * 60_000);
const days = (n: number) => new Date(NOW.getTime() - n * 86_400_000);
const APPLE_PROXY = 'Mozilla/5.0';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

// Each subscriber's story; `opener` says whether a person opened within the last 30 days.
const STORIES: Record<string, { events: Array<Omit<EngagementEventInput, 'subscriberId'>>; opener: boolean }> = {
  sub_reader: {
    events: [
      { type: 'delivered', occurredAt: days(3) },
      { type: 'opened', occurredAt: new Date(days(3).getTime() + 3_600_000), userAgent: IPHONE },
    ],
    opener: true,
  },
  sub_apple_proxy_only: {
    events: [
      { type: 'delivered', occurredAt: days(2) },
      { type: 'opened', occurredAt: new Date(days(2).getTime() + 3_600_000), userAgent: APPLE_PROXY },
    ],
    opener: false,
  },
  sub_prefetched_at_delivery: {
    events: [
      { type: 'delivered', occurredAt: minutes(30) },
      { type: 'opened', occurredAt: new Date(minutes(30).getTime() + 2_000), userAgent: IPHONE },
    ],
    opener: false,
  },
  sub_scanner_only: {
    events: [
      { type: 'delivered', occurredAt: days(1) },
      { type: 'opened', occurredAt: new Date(days(1).getTime() + 600_000), userAgent: 'Mozilla/5.0 (compatible; Barracuda Sentinel)' },
    ],
    opener: false,
  },
  sub_long_ago: {
    events: [
      { type: 'delivered', occurredAt: days(60) },
      { type: 'opened', occurredAt: new Date(days(60).getTime() + 3_600_000), userAgent: IPHONE },
    ],
    opener: false,
  },
  sub_never: { events: [{ type: 'delivered', occurredAt: days(5) }], opener: false },
};

const opened = (operator: AudienceCondition['operator'], value: AudienceCondition['value']): AudienceDefinition => ({
  match: 'all',
  groups: [{ id: 'g', match: 'all', conditions: [{ id: 'o', field: 'email_opened', operator, value }] }],
});

describe('engagement conditions over recorded events (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: EmailPrisma;
  let sql: EmailSql;
  let audience: AudienceRepository;

  beforeAll(async () => {
    db = await createTestDatabase('email');
    const config = { emailDatabaseUrl: db.url, databaseConnectTimeoutMs: 5000 } as AppConfig;
    prisma = new EmailPrisma(config);
    sql = new EmailSql(config);
    const clock = { now: () => NOW };
    const writer = new EngagementRepository(sql, new EmailEventPartitions(sql), clock, { engagementRetentionMonths: 25 });
    audience = new AudienceRepository(prisma, sql, clock);
    await prisma.workspace.create({ data: { id: WORKSPACE, name: 'Engaged' } });
    await prisma.subscriber.createMany({ data: Object.keys(STORIES).map((id) => ({ id, workspace_id: WORKSPACE, email: `${id}@example.com` })) });
    await writer.record(
      WORKSPACE,
      Object.entries(STORIES).flatMap(([subscriberId, story]) => story.events.map((event) => ({ ...event, subscriberId }))),
    );
  });
  afterAll(async () => {
    await sql?.onModuleDestroy();
    await prisma?.$disconnect();
    await db?.drop();
  });

  const selected = async (definition: AudienceDefinition) => audience.page(await audience.compile(WORKSPACE, definition), null, 100);

  it('stores every open, flagging the machine ones', async () => {
    const opens = await prisma.emailEvent.findMany({ where: { workspace_id: WORKSPACE, type: 'opened' }, orderBy: { subscriber_id: 'asc' } });
    expect(opens.map((open) => [open.subscriber_id, open.machine])).toEqual([
      ['sub_apple_proxy_only', true],
      ['sub_long_ago', false],
      ['sub_prefetched_at_delivery', true],
      ['sub_reader', false],
      ['sub_scanner_only', true],
    ]);
  });

  it('counts only human opens in "opened in the last 30 days"', async () => {
    const expected = Object.entries(STORIES)
      .filter(([, story]) => story.opener)
      .map(([id]) => id);
    expect(await selected(opened('in_last_days', 30))).toEqual(expected);
  });

  it('treats a subscriber whose only opens were machine opens as never having opened', async () => {
    expect(await selected(opened('is', true))).toEqual(['sub_long_ago', 'sub_reader']);
    expect(await selected(opened('is', false))).toEqual(['sub_apple_proxy_only', 'sub_never', 'sub_prefetched_at_delivery', 'sub_scanner_only']);
  });
});
