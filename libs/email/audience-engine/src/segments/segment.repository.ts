import { Injectable, OnModuleInit } from '@nestjs/common';
import { EmailPrisma, Prisma, Segment } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { WorkspaceId, likeLiteral } from '@shared/core';
import { isRecordGone, isUniqueViolation } from '@shared/errors';
import { KeysetPage, keysetWhere } from '@shared/pagination';
import type { AudienceDefinition } from '../audience-definition';
import { MAX_SEGMENT_DEPTH } from '../audience-compiler';
import type { AudienceCount } from '../audience.repository';
import { AudienceReference, AudienceReferences, AudienceReferrer, AudienceUse, referencePath } from './segment-users';

export const segmentKey = (name: string) => name.trim().toLowerCase();

export interface SegmentWrite {
  name?: string;
  description?: string | null;
  definition?: AudienceDefinition;
  /** The segments `definition` names in its segment conditions. */
  referencedSegmentIds?: string[];
}

export type SegmentTx = Prisma.TransactionClient;

/** The unique (workspace_id, name_key) index is the only name check, so concurrent writers cannot both pass it. */
function nameTakenOn(error: unknown): never {
  throw isUniqueViolation(error, 'name_key')
    ? EmailErrors.fail('segment_name_taken', 'Another segment already has this name.', { details: { field: 'name' } })
    : error;
}

const UNCOUNTED = { confirmed_count: 0, total_count: 0, counts_refreshed_at: null };

const columns = (data: SegmentWrite) => {
  const name = data.name?.trim();
  return {
    ...(name !== undefined ? { name, name_key: segmentKey(name) } : {}),
    ...(data.description !== undefined ? { description: data.description } : {}),
    // A new definition's counts are not known until it is counted (the writer counts right after commit).
    ...(data.definition !== undefined ? { definition: data.definition as unknown as Prisma.InputJsonObject, ...UNCOUNTED } : {}),
    ...(data.referencedSegmentIds !== undefined ? { referenced_segment_ids: data.referencedSegmentIds } : {}),
  };
};

@Injectable()
export class SegmentRepository implements AudienceReferrer, OnModuleInit {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly references: AudienceReferences,
  ) {}

  onModuleInit(): void {
    this.references.register(this);
  }

  list(workspaceId: WorkspaceId, page: KeysetPage, search?: string): Promise<Segment[]> {
    return this.prisma.segment.findMany({
      where: { workspace_id: workspaceId, ...(search ? { name: { contains: likeLiteral(search), mode: 'insensitive' } } : {}), ...keysetWhere(page) },
      orderBy: [{ created_at: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
  }

  find(workspaceId: WorkspaceId, id: string, db: SegmentTx = this.prisma): Promise<Segment | null> {
    return db.segment.findFirst({ where: { workspace_id: workspaceId, id } });
  }

  /**
   * Runs `work` in one transaction holding the workspace's segment lock until commit. Every write that changes
   * which segments reference which takes it, so a definition validated inside (no cycle, references present) is
   * still valid when it commits, and a delete cannot miss a reference being saved at the same moment.
   */
  locked<T>(workspaceId: WorkspaceId, work: (tx: SegmentTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`segments:${workspaceId}`}, 0))`;
        return work(tx);
      },
      { maxWait: 10_000, timeout: 15_000 },
    );
  }

  create(tx: SegmentTx, workspaceId: WorkspaceId, id: string, data: Required<SegmentWrite>): Promise<Segment> {
    const definition = data.definition as unknown as Prisma.InputJsonObject;
    return tx.segment
      .create({ data: { id, workspace_id: workspaceId, ...columns(data), name: data.name.trim(), name_key: segmentKey(data.name), definition } })
      .catch(nameTakenOn);
  }

  /** The updated segment, or null when the workspace has no such segment. */
  update(tx: SegmentTx, workspaceId: WorkspaceId, id: string, data: SegmentWrite): Promise<Segment | null> {
    return tx.segment
      .update({ where: { id, workspace_id: workspaceId }, data: columns(data) })
      .catch((error: unknown) => (isRecordGone(error) ? null : nameTakenOn(error)));
  }

  async delete(tx: SegmentTx, workspaceId: WorkspaceId, id: string): Promise<boolean> {
    const { count } = await tx.segment.deleteMany({ where: { workspace_id: workspaceId, id } });
    return count === 1;
  }

  /** Segments of the workspace with a condition on the custom field, the tag or the segment (inside a transaction holding `locked`). */
  async referencing(tx: SegmentTx, workspaceId: WorkspaceId, reference: AudienceReference): Promise<AudienceUse[]> {
    if ('segmentId' in reference) {
      const rows = await tx.segment.findMany({
        where: { workspace_id: workspaceId, referenced_segment_ids: { has: reference.segmentId } },
        select: { id: true, name: true },
        orderBy: { id: 'asc' },
      });
      return rows.map((row) => ({ type: 'segment', id: row.id, name: row.name }));
    }
    const { path, id } = referencePath(reference);
    const rows = await tx.$queryRaw<Array<{ id: string; name: string }>>`
      SELECT id, name FROM segments
      WHERE workspace_id = ${workspaceId} AND jsonb_path_exists(definition, ${path}::jsonpath, jsonb_build_object('id', ${id}::text))
      ORDER BY id`;
    return rows.map((row) => ({ type: 'segment', id: row.id, name: row.name }));
  }

  /**
   * The segments that reach `id` through segment conditions, directly or through others, up to as many levels up as
   * nesting allows (inside a transaction holding `locked`): an edit of `id` changes what each of them expands to.
   */
  referrersOf(tx: SegmentTx, workspaceId: WorkspaceId, id: string): Promise<Array<Pick<Segment, 'id' | 'name' | 'definition'>>> {
    return tx.$queryRaw`
      WITH RECURSIVE up(id, level) AS (
        SELECT id, 1 FROM segments WHERE workspace_id = ${workspaceId} AND referenced_segment_ids @> ARRAY[${id}::text]
        UNION
        SELECT s.id, up.level + 1 FROM up JOIN segments s ON s.workspace_id = ${workspaceId} AND s.referenced_segment_ids @> ARRAY[up.id]
        WHERE up.level < ${MAX_SEGMENT_DEPTH}::int
      )
      SELECT id, name, definition FROM segments WHERE workspace_id = ${workspaceId} AND id IN (SELECT id FROM up) ORDER BY id`;
  }

  /** Stores counts taken at `countedAt`, unless newer ones are already there; a recount is not an edit, so updated_at stays. */
  async saveCounts(workspaceId: WorkspaceId, id: string, counts: AudienceCount, countedAt: Date): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE segments SET confirmed_count = ${counts.confirmed}, total_count = ${counts.total}, counts_refreshed_at = ${countedAt}
      WHERE workspace_id = ${workspaceId} AND id = ${id} AND (counts_refreshed_at IS NULL OR counts_refreshed_at < ${countedAt})`;
  }
}
