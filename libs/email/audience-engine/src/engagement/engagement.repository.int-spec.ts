import { EmailPrisma } from '@email/data-access';
import { trustedWorkspaceId } from '@shared/core';
import { EngagementRepository, EngagementEventInput, MAX_FUTURE_MS } from './engagement.repository';
import { EngagementMaintenance } from './engagement-maintenance.service';
import { ago, DAY, GMAIL, NOW, useEngagementTestBed } from './engagement.fixture';

const A = trustedWorkspaceId('wsp_engage_a');
const B = trustedWorkspaceId('wsp_engage_b');
const SECOND = 1000;

interface StoredEvent {
  subscriber_id: string;
  type: string;
  occurred_at: Date;
  source_type: string | null;
  source_id: string | null;
  machine: boolean;
  machine_reason: string | null;
  partition: string;
}

describe('EngagementRepository (real PostgreSQL)', () => {
  const bed = useEngagementTestBed(NOW, A, B);
  let prisma: EmailPrisma;
  let repository: EngagementRepository;
  let maintenance: EngagementMaintenance;
  beforeAll(() => {
    ({ prisma, writer: repository, maintenance } = bed);
  });

  const subscriber = (workspace = A) => bed.subscriber(workspace);

  const eventsOf = (subscriberId: string) =>
    prisma.$queryRaw<StoredEvent[]>`
      SELECT subscriber_id, type::text AS type, occurred_at, source_type, source_id, machine, machine_reason, tableoid::regclass::text AS partition
      FROM email_events WHERE subscriber_id = ${subscriberId} ORDER BY occurred_at, id`;
  const rollupOf = (subscriberId: string) => prisma.subscriberEngagement.findUnique({ where: { subscriber_id: subscriberId } });
  const lastOpenedOf = async (subscriberId: string) => {
    const [row] = await prisma.$queryRaw<Array<{ last_opened_at: Date | null; xmin: string }>>`
      SELECT last_opened_at, xmin::text AS xmin FROM subscribers WHERE id = ${subscriberId}`;
    return row;
  };
  const partitionNames = async () =>
    (
      await prisma.$queryRaw<Array<{ name: string }>>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'email_events'::regclass ORDER BY 1`
    ).map((row) => row.name);
  const open = (subscriberId: string, occurredAt: Date, extra: Partial<EngagementEventInput> = {}): EngagementEventInput => ({
    subscriberId,
    type: 'opened',
    occurredAt,
    userAgent: GMAIL,
    ...extra,
  });

  describe('events', () => {
    it('land in the partition of their UTC month, with their source, creating a month that had none', async () => {
      const id = await subscriber();
      expect(await partitionNames()).not.toContain('email_events_2025_01');
      const result = await repository.record(A, [
        { subscriberId: id, type: 'delivered', occurredAt: new Date('2026-05-31T23:59:59.999Z'), sourceType: 'broadcast', sourceId: 'brd_1' },
        { subscriberId: id, type: 'clicked', occurredAt: new Date('2026-06-01T00:00:00.000Z'), sourceType: 'broadcast', sourceId: 'brd_1' },
        { subscriberId: id, type: 'bounced', occurredAt: new Date('2025-01-10T08:00:00.000Z') },
      ]);
      expect(result).toEqual({ written: 3, machineOpens: 0, subscribers: 1, skipped: { unknownSubscriber: 0, outsideRetention: 0, inFuture: 0 } });
      expect(await eventsOf(id)).toEqual([
        expect.objectContaining({ type: 'bounced', partition: 'email_events_2025_01', source_type: null, source_id: null }),
        expect.objectContaining({ type: 'delivered', partition: 'email_events_2026_05', source_type: 'broadcast', source_id: 'brd_1' }),
        expect.objectContaining({ type: 'clicked', partition: 'email_events_2026_06', source_type: 'broadcast', source_id: 'brd_1' }),
      ]);
      expect(await partitionNames()).toEqual(expect.arrayContaining(['email_events_2025_01', 'email_events_2026_05', 'email_events_2026_06']));
    });

    it('never stores the user agent', async () => {
      const id = await subscriber();
      await repository.record(A, [open(id, ago(DAY), { userAgent: 'Mozilla/5.0 (unique-agent-marker)' })]);
      const [{ found }] = await prisma.$queryRaw<Array<{ found: number }>>`
        SELECT count(*)::int AS found FROM email_events e WHERE e::text LIKE '%unique-agent-marker%'`;
      expect(found).toBe(0);
    });

    it('skips events older than the retention and those ahead of the clock, and writes nothing for them', async () => {
      const id = await subscriber();
      // 25 months back from 2026-06-15 is 2024-05-15; whole months are kept, so from 2024-05-01.
      const result = await repository.record(A, [
        open(id, new Date('2024-04-30T23:59:59.999Z')),
        open(id, new Date('2024-05-01T00:00:00.000Z')),
        open(id, new Date(NOW.getTime() + MAX_FUTURE_MS)),
        open(id, new Date(NOW.getTime() + MAX_FUTURE_MS + 1)),
      ]);
      expect(result).toEqual({ written: 2, machineOpens: 0, subscribers: 1, skipped: { unknownSubscriber: 0, outsideRetention: 1, inFuture: 1 } });
      expect((await eventsOf(id)).map((event) => event.occurred_at.toISOString())).toEqual(['2024-05-01T00:00:00.000Z', '2026-06-15T12:10:00.000Z']);
      expect(await partitionNames()).not.toContain('email_events_2024_04');
    });

    it('writes nothing and touches no table for an empty batch or one with nothing in range', async () => {
      expect(await repository.record(A, [])).toEqual({
        written: 0,
        machineOpens: 0,
        subscribers: 0,
        skipped: { unknownSubscriber: 0, outsideRetention: 0, inFuture: 0 },
      });
      const id = await subscriber();
      expect((await repository.record(A, [open(id, new Date('2020-01-01T00:00:00Z'))])).skipped.outsideRetention).toBe(1);
      expect(await rollupOf(id)).toBeNull();
    });

    it('refuses an invalid date or type before writing anything', async () => {
      const id = await subscriber();
      await expect(repository.record(A, [open(id, ago(DAY)), open(id, new Date('nope'))])).rejects.toThrow(RangeError);
      await expect(repository.record(A, [{ subscriberId: id, type: 'read' as never, occurredAt: ago(DAY) }])).rejects.toThrow(RangeError);
      expect(await eventsOf(id)).toEqual([]);
    });

    it('recreates a partition dropped behind its back (this process believed in it)', async () => {
      const id = await subscriber();
      bed.now = new Date('2025-08-20T00:00:00Z');
      await repository.record(A, [open(id, new Date('2025-08-10T00:00:00Z'))]);
      await prisma.$executeRawUnsafe('DROP TABLE email_events_2025_08');
      await repository.record(A, [open(id, new Date('2025-08-11T00:00:00Z'))]);
      expect((await eventsOf(id)).map((event) => [event.partition, event.occurred_at.toISOString()])).toEqual([
        ['email_events_2025_08', '2025-08-11T00:00:00.000Z'],
      ]);
    });
  });

  describe('tenancy', () => {
    it("skips another workspace's subscriber and an unknown id: no event, no rollup, no last_opened_at", async () => {
      const mine = await subscriber(A);
      const theirs = await subscriber(B);
      const before = await lastOpenedOf(theirs);
      const result = await repository.record(A, [open(theirs, ago(DAY)), open('sub_nobody', ago(DAY)), open(mine, ago(DAY))]);
      expect(result).toEqual({ written: 1, machineOpens: 0, subscribers: 1, skipped: { unknownSubscriber: 2, outsideRetention: 0, inFuture: 0 } });
      expect(await eventsOf(theirs)).toEqual([]);
      expect(await eventsOf('sub_nobody')).toEqual([]);
      expect(await rollupOf(theirs)).toBeNull();
      expect(await lastOpenedOf(theirs)).toEqual(before);
      expect((await eventsOf(mine)).map((event) => event.subscriber_id)).toEqual([mine]);
    });

    it('writes nothing at all when every id is foreign', async () => {
      const theirs = await subscriber(B);
      const result = await repository.record(A, [open(theirs, ago(DAY)), { subscriberId: theirs, type: 'clicked', occurredAt: ago(DAY) }]);
      expect(result).toEqual({ written: 0, machineOpens: 0, subscribers: 0, skipped: { unknownSubscriber: 2, outsideRetention: 0, inFuture: 0 } });
      expect(await eventsOf(theirs)).toEqual([]);
      expect(await rollupOf(theirs)).toBeNull();
    });
  });

  describe('machine opens', () => {
    it('flags opens by user agent and by time since the delivery, stores them, and keeps them out of the human columns', async () => {
      const id = await subscriber();
      const delivered = ago(2 * DAY);
      const result = await repository.record(A, [
        open(id, ago(DAY), { userAgent: 'Mozilla/5.0' }),
        open(id, ago(DAY - SECOND), { userAgent: 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html' }),
        open(id, new Date(delivered.getTime() + 3 * SECOND), { deliveredAt: delivered }),
        open(id, new Date(delivered.getTime() + 60 * SECOND), { deliveredAt: delivered }),
      ]);
      expect(result).toMatchObject({ written: 4, machineOpens: 3 });
      expect((await eventsOf(id)).map((event) => [event.machine, event.machine_reason])).toEqual([
        [true, 'opened_at_delivery'],
        [false, null],
        [true, 'apple_mail_privacy'],
        [true, 'yahoo_prefetch'],
      ]);
      expect(await rollupOf(id)).toMatchObject({
        last_opened_at: new Date(delivered.getTime() + 60 * SECOND),
        last_machine_opened_at: ago(DAY - SECOND),
        opens_30d: 1,
        opens_90d: 1,
      });
    });

    it("times an open without deliveredAt against a delivery in the same batch, or the rollup's last delivery", async () => {
      const inBatch = await subscriber();
      const delivered = ago(3 * DAY);
      await repository.record(A, [
        { subscriberId: inBatch, type: 'delivered', occurredAt: delivered },
        open(inBatch, new Date(delivered.getTime() + 2 * SECOND)),
        open(inBatch, new Date(delivered.getTime() + 2 * 3600 * SECOND)),
      ]);
      expect((await eventsOf(inBatch)).map((event) => [event.type, event.machine_reason])).toEqual([
        ['delivered', null],
        ['opened', 'opened_at_delivery'],
        ['opened', null],
      ]);

      const fromRollup = await subscriber();
      await repository.record(A, [{ subscriberId: fromRollup, type: 'delivered', occurredAt: delivered }]);
      await repository.record(A, [open(fromRollup, new Date(delivered.getTime() + 5 * SECOND))]);
      // A delivery after the open is another message's: it says nothing about this open.
      await repository.record(A, [open(fromRollup, new Date(delivered.getTime() - 5 * SECOND))]);
      expect((await eventsOf(fromRollup)).map((event) => [event.type, event.machine_reason])).toEqual([
        ['opened', null],
        ['delivered', null],
        ['opened', 'opened_at_delivery'],
      ]);
    });
  });

  describe('the rollup', () => {
    it('moves every last_* time only forward, per kind', async () => {
      const id = await subscriber();
      const kinds = ['delivered', 'clicked', 'bounced', 'complained', 'unsubscribed', 'magic_link_clicked'] as const;
      await repository.record(A, [...kinds.map((type) => ({ subscriberId: id, type, occurredAt: ago(5 * DAY) })), open(id, ago(4 * DAY))]);
      await repository.record(A, [...kinds.map((type) => ({ subscriberId: id, type, occurredAt: ago(9 * DAY) })), open(id, ago(8 * DAY))]);
      const rollup = await rollupOf(id);
      expect(rollup).toMatchObject({
        workspace_id: A,
        last_delivered_at: ago(5 * DAY),
        last_opened_at: ago(4 * DAY),
        last_machine_opened_at: null,
        last_clicked_at: ago(5 * DAY),
        last_bounced_at: ago(5 * DAY),
        last_complained_at: ago(5 * DAY),
        last_unsubscribed_at: ago(5 * DAY),
        last_magic_link_clicked_at: ago(5 * DAY),
      });
      await repository.record(A, [{ subscriberId: id, type: 'bounced', occurredAt: ago(DAY) }]);
      expect(await rollupOf(id)).toMatchObject({ last_bounced_at: ago(DAY), last_clicked_at: ago(5 * DAY), last_opened_at: ago(4 * DAY) });
    });

    it('counts human opens and clicks in the 30 and 90 days before now, older batches included, machine opens not', async () => {
      const id = await subscriber();
      bed.now = ago(40 * DAY);
      await repository.record(A, [open(id, ago(100 * DAY)), { subscriberId: id, type: 'clicked', occurredAt: ago(60 * DAY) }]);
      bed.now = NOW;
      const result = await repository.record(A, [
        open(id, ago(10 * DAY)),
        open(id, ago(30 * DAY - SECOND)),
        open(id, ago(30 * DAY)),
        open(id, ago(89 * DAY)),
        open(id, ago(5 * DAY), { userAgent: 'Mozilla/5.0' }),
        { subscriberId: id, type: 'clicked', occurredAt: ago(20 * DAY) },
        { subscriberId: id, type: 'delivered', occurredAt: ago(2 * DAY) },
      ]);
      expect(result).toMatchObject({ written: 7, machineOpens: 1, subscribers: 1 });
      // Windows are (now − 30 days, now] and (now − 90 days, now]: the open exactly 30 days back is in the 90-day one only.
      expect(await rollupOf(id)).toMatchObject({ opens_30d: 2, opens_90d: 4, clicks_30d: 1, clicks_90d: 2, windows_as_of: NOW });
    });

    it('recounts the windows as of the later clock, dropping what has aged out', async () => {
      const id = await subscriber();
      await repository.record(A, [open(id, ago(25 * DAY)), { subscriberId: id, type: 'clicked', occurredAt: ago(25 * DAY) }]);
      expect(await rollupOf(id)).toMatchObject({ opens_30d: 1, clicks_30d: 1 });
      bed.now = new Date(NOW.getTime() + 10 * DAY);
      await repository.record(A, [{ subscriberId: id, type: 'delivered', occurredAt: ago(0) }]);
      expect(await rollupOf(id)).toMatchObject({ opens_30d: 0, opens_90d: 1, clicks_30d: 0, clicks_90d: 1, windows_as_of: bed.now });
    });

    it('keeps each subscriber apart in one batch', async () => {
      const [one, two] = [await subscriber(), await subscriber()];
      const result = await repository.record(A, [
        open(one, ago(DAY)),
        open(one, ago(2 * DAY)),
        { subscriberId: two, type: 'clicked', occurredAt: ago(3 * DAY) },
      ]);
      expect(result).toMatchObject({ written: 3, subscribers: 2 });
      expect(await rollupOf(one)).toMatchObject({ opens_30d: 2, clicks_30d: 0, last_opened_at: ago(DAY), last_clicked_at: null });
      expect(await rollupOf(two)).toMatchObject({ opens_30d: 0, clicks_30d: 1, last_opened_at: null, last_clicked_at: ago(3 * DAY) });
    });

    it('counts every event when writers of the same subscriber run at once', async () => {
      const id = await subscriber();
      await Promise.all(Array.from({ length: 8 }, (_, i) => repository.record(A, [open(id, ago((i + 1) * DAY))])));
      expect(await rollupOf(id)).toMatchObject({ opens_30d: 8, opens_90d: 8, last_opened_at: ago(DAY) });
    });
  });

  describe('subscribers.last_opened_at', () => {
    it('moves forward for human opens only, and the row is not rewritten otherwise', async () => {
      const id = await subscriber();
      await repository.record(A, [open(id, ago(5 * DAY))]);
      const first = await lastOpenedOf(id);
      expect(first.last_opened_at).toEqual(ago(5 * DAY));

      await repository.record(A, [open(id, ago(DAY), { userAgent: 'Mozilla/5.0' }), { subscriberId: id, type: 'clicked', occurredAt: ago(DAY) }]);
      await repository.record(A, [open(id, ago(7 * DAY))]);
      // Neither a machine open, a click nor an older open changed the row: the same version.
      expect(await lastOpenedOf(id)).toEqual(first);

      await repository.record(A, [open(id, ago(2 * DAY))]);
      expect((await lastOpenedOf(id)).last_opened_at).toEqual(ago(2 * DAY));
    });
  });

  describe('partition maintenance', () => {
    it('makes the current month and the coming ones', async () => {
      bed.now = new Date('2026-11-30T23:00:00Z');
      expect(await maintenance.ensureMonthsAhead(3)).toEqual(['2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01']);
      expect(await partitionNames()).toEqual(
        expect.arrayContaining(['email_events_2026_11', 'email_events_2026_12', 'email_events_2027_01', 'email_events_2027_02']),
      );
      expect(await partitionNames()).not.toContain('email_events_2027_03');
    });

    it('drops only the months wholly older than the retention, with their events', async () => {
      const id = await subscriber();
      bed.now = new Date('2024-02-10T00:00:00Z');
      await repository.record(A, [open(id, new Date('2024-01-15T00:00:00Z')), open(id, new Date('2024-02-05T00:00:00Z'))]);
      bed.now = new Date('2024-03-03T00:00:00Z');
      await repository.record(A, [open(id, new Date('2024-03-01T00:00:00Z'))]);

      bed.now = new Date('2026-03-20T00:00:00Z');
      // 25 months before 2026-03-20 is 2024-02-20: January 2024 goes, February 2024 (partly younger) stays.
      expect(await maintenance.pruneOlderThan(25)).toEqual({ dropped: 1, keptFrom: '2024-02-01T00:00:00.000Z' });
      const left = await partitionNames();
      expect(left).not.toContain('email_events_2024_01');
      expect(left).toEqual(expect.arrayContaining(['email_events_2024_02', 'email_events_2024_03', 'email_events_2026_06']));
      expect((await eventsOf(id)).map((event) => event.occurred_at.toISOString())).toEqual(['2024-02-05T00:00:00.000Z', '2024-03-01T00:00:00.000Z']);
      expect(await maintenance.pruneOlderThan(25)).toEqual({ dropped: 0, keptFrom: '2024-02-01T00:00:00.000Z' });
    });

    it('runs both with the configured retention', async () => {
      bed.now = new Date('2026-12-02T00:00:00Z');
      const report = await maintenance.run();
      expect(report.ensured).toEqual(['2026-12-01', '2027-01-01', '2027-02-01', '2027-03-01']);
      expect(report.keptFrom).toBe('2024-11-01T00:00:00.000Z');
      expect((await partitionNames()).filter((name) => name < 'email_events_2024_11')).toEqual([]);
    });
  });
});
