import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { EmailPrisma, Prisma } from '@email/data-access';
import { AudienceReference, AudienceReferences, AudienceReferrer, AudienceUse, referencePath, SegmentCountingModule } from '@email/audience-engine';
import { ConnectionUsage, ConnectionUse, ConnectionUser, EmailDeliveryModule } from '@email/delivery';
import { WorkspaceId } from '@shared/core';

/** Broadcasts that may still send: the ones whose connection and audience must not be pulled from under them. */
const LIVE: Array<'draft' | 'scheduled' | 'running'> = ['draft', 'scheduled', 'running'];
const AT_MOST = 20;

/** Scheduled and running broadcasts use their connection: it cannot be changed or deleted under them. */
@Injectable()
export class BroadcastConnectionUser implements ConnectionUser, OnModuleInit {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly usage: ConnectionUsage,
  ) {}

  onModuleInit(): void {
    this.usage.register(this);
  }

  async activeUsesOf(workspaceId: WorkspaceId, connectionId: string): Promise<ConnectionUse[]> {
    const broadcasts = await this.prisma.broadcast.findMany({
      where: { workspace_id: workspaceId, connection_id: connectionId, status: { in: ['scheduled', 'running'] } },
      select: { id: true, subject: true },
      orderBy: { id: 'asc' },
      take: AT_MOST,
    });
    return broadcasts.map((broadcast) => ({ type: 'broadcast', id: broadcast.id, name: broadcast.subject }));
  }
}

/**
 * Draft, scheduled and running broadcasts whose audience names a tag, custom field or segment: deleting it would
 * change (or break) who they send to. Completed and failed broadcasts are history and never send again.
 */
@Injectable()
export class BroadcastAudienceReferrer implements AudienceReferrer, OnModuleInit {
  constructor(private readonly references: AudienceReferences) {}

  onModuleInit(): void {
    this.references.register(this);
  }

  async referencing(tx: Prisma.TransactionClient, workspaceId: WorkspaceId, reference: AudienceReference): Promise<AudienceUse[]> {
    const { path, id } = referencePath(reference);
    const rows = await tx.$queryRaw<Array<{ id: string; subject: string }>>`
      SELECT id, subject FROM broadcasts
      WHERE workspace_id = ${workspaceId} AND status::text = ANY(${LIVE}) AND audience_definition IS NOT NULL
        AND jsonb_path_exists(audience_definition, ${path}::jsonpath, jsonb_build_object('id', ${id}::text))
      ORDER BY id LIMIT ${AT_MOST}`;
    return rows.map((row) => ({ type: 'broadcast', id: row.id, name: row.subject }));
  }
}

/** Import in an app that serves connection, tag, custom field or segment deletes, so they know what broadcasts use. */
@Module({ imports: [EmailDeliveryModule, SegmentCountingModule], providers: [BroadcastConnectionUser, BroadcastAudienceReferrer] })
export class BroadcastUsageModule {}
