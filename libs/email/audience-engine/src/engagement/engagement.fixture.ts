import { EmailPrisma, EmailSql } from '@email/data-access';
import type { AppConfig } from '@shared/config';
import { WorkspaceId } from '@shared/core';
import { createTestDatabase, TestDatabase } from '@shared/testing';
import { EngagementMaintenance } from './engagement-maintenance.service';
import { EngagementWindowsRepository } from './engagement-windows.repository';
import { EngagementRepository } from './engagement.repository';
import { EmailEventPartitions } from './event-partitions';

/** The instant the engagement tests start their clock at, and helpers for times around it. */
export const NOW = new Date('2026-06-15T12:00:00.000Z');
export const DAY = 86_400_000;
export const ago = (ms: number) => new Date(NOW.getTime() - ms);
/** Gmail's image proxy: the fetch a person's open makes, never taken for a machine. */
export const GMAIL = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

export interface EngagementTestBed {
  db: TestDatabase;
  prisma: EmailPrisma;
  sql: EmailSql;
  partitions: EmailEventPartitions;
  writer: EngagementRepository;
  maintenance: EngagementMaintenance;
  /** The instant the writer and the maintenance take for now; reset to `start` before each test. */
  now: Date;
  /** A new subscriber of the workspace (by default the first one given), so every test starts from its own rows. */
  subscriber(workspace?: WorkspaceId): Promise<string>;
}

/**
 * For the engagement integration tests (call at describe level): a throw-away email database with the given
 * workspaces, the event writer and the maintenance on a clock the test sets, 25 months of retention.
 */
export function useEngagementTestBed(start: Date, ...workspaceIds: WorkspaceId[]): EngagementTestBed {
  let counter = 0;
  const bed = {
    now: start,
    async subscriber(workspace = workspaceIds[0]) {
      const id = `sub_${workspace}_${String(++counter).padStart(4, '0')}`;
      await bed.prisma.subscriber.create({ data: { id, workspace_id: workspace, email: `${id}@example.com` } });
      return id;
    },
  } as EngagementTestBed;
  const clock = { now: () => bed.now };
  const config = { engagementRetentionMonths: 25 };
  beforeAll(async () => {
    bed.db = await createTestDatabase('email');
    const appConfig = { emailDatabaseUrl: bed.db.url, databaseConnectTimeoutMs: 5000 } as AppConfig;
    bed.prisma = new EmailPrisma(appConfig);
    bed.sql = new EmailSql(appConfig);
    bed.partitions = new EmailEventPartitions(bed.sql);
    bed.writer = new EngagementRepository(bed.sql, bed.partitions, clock, config);
    bed.maintenance = new EngagementMaintenance(bed.partitions, new EngagementWindowsRepository(bed.sql), clock, config);
    await bed.prisma.workspace.createMany({ data: workspaceIds.map((id) => ({ id, name: id })) });
  });
  beforeEach(() => {
    bed.now = start;
  });
  afterAll(async () => {
    await bed.prisma?.$disconnect();
    await bed.sql?.onModuleDestroy();
    await bed.db?.drop();
  });
  return bed;
}
