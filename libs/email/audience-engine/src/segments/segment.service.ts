import { Injectable, Logger } from '@nestjs/common';
import type { Segment } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import { DomainError } from '@shared/errors';
import { CursorCodec, keysetList, Page } from '@shared/pagination';
import { parseAudienceDefinition, type AudienceDefinition } from '../audience-definition';
import { AudienceCount, AudienceRepository, CompiledAudience } from '../audience.repository';
import { segmentIdsOf } from '../audience-compiler';
import { SegmentCountRequests } from './segment-count.queue';
import { countsAreStale, SegmentCounter } from './segment-counter';
import { SegmentDto, SegmentPreviewDto, SegmentPreviewRequestDto, SegmentSummaryDto, SegmentUpdateRequestDto, SegmentUpsertRequestDto } from './segment.dto';
import { SegmentRepository, SegmentTx, SegmentWrite } from './segment.repository';
import { AudienceReferences, describeUses } from './segment-users';

/** What an edit of a segment can break in the segments that use it (cycles are refused by its own compile). */
const EDIT_BREAKS = ['segment_nesting_too_deep', 'audience_definition_too_large'] as const;
type EditBreak = (typeof EDIT_BREAKS)[number];

const cachedCounts = (segment: Segment): AudienceCount => ({ confirmed: segment.confirmed_count, total: segment.total_count });

export function toSegmentSummary(segment: Segment): SegmentSummaryDto {
  return {
    self: `/v1/segments/${segment.id}`,
    id: segment.id,
    name: segment.name,
    description: segment.description,
    confirmed_subscriber_count: segment.confirmed_count,
    total_subscriber_count: segment.total_count,
    created_at: segment.created_at.toISOString(),
    updated_at: segment.updated_at.toISOString(),
  };
}

function toSegmentDto(segment: Segment, counts: AudienceCount, countedAt: Date | null): SegmentDto {
  return {
    self: `/v1/segments/${segment.id}`,
    id: segment.id,
    name: segment.name,
    description: segment.description,
    definition: segment.definition as unknown as AudienceDefinition,
    confirmed_subscriber_count: counts.confirmed,
    total_subscriber_count: counts.total,
    ...(countedAt ? { counts_refreshed_at: countedAt.toISOString() } : {}),
    created_at: segment.created_at.toISOString(),
    updated_at: segment.updated_at.toISOString(),
  };
}

@Injectable()
export class SegmentService {
  private readonly logger = new Logger(SegmentService.name);

  constructor(
    private readonly segments: SegmentRepository,
    private readonly audience: AudienceRepository,
    private readonly counter: SegmentCounter,
    private readonly countRequests: SegmentCountRequests,
    private readonly ids: IdGenerator,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly references: AudienceReferences,
  ) {}

  /** Counts come from the cache on each row; stale ones are recounted in the background for a later page. */
  async list(workspaceId: WorkspaceId, query: { limit?: string; starting_after?: string; search?: string }): Promise<Page<SegmentSummaryDto>> {
    const search = query.search?.trim() || undefined;
    const now = this.clock.now();
    const stale: string[] = [];
    const page = await keysetList(
      this.cursors,
      `${workspaceId}:segments`,
      query,
      (keyset) => this.segments.list(workspaceId, keyset, search),
      (segment) => {
        if (countsAreStale(segment, now)) stale.push(segment.id);
        return toSegmentSummary(segment);
      },
    );
    this.countRequests.request(workspaceId, stale);
    return page;
  }

  /** One segment with counts taken now (they refresh the cache too). */
  async get(workspaceId: WorkspaceId, id: string): Promise<SegmentDto> {
    const segment = await this.segments.find(workspaceId, id);
    if (!segment) throw EmailErrors.notFound('segment', id);
    return this.withFreshCounts(workspaceId, segment);
  }

  async create(workspaceId: WorkspaceId, input: SegmentUpsertRequestDto): Promise<SegmentDto> {
    const id = this.ids.newId('seg');
    const definition = parseAudienceDefinition(input.definition);
    const { segment, compiled } = await this.segments.locked(workspaceId, async (tx) => {
      const compiled = await this.audience.compile(workspaceId, definition, id, tx);
      const data = { name: input.name, description: input.description ?? null, definition, referencedSegmentIds: segmentIdsOf(definition) };
      return { segment: await this.segments.create(tx, workspaceId, id, data), compiled };
    });
    return this.withFreshCounts(workspaceId, segment, compiled);
  }

  async update(workspaceId: WorkspaceId, id: string, input: SegmentUpdateRequestDto): Promise<SegmentDto> {
    if (input.name === undefined && input.description === undefined && input.definition === undefined) {
      throw EmailErrors.invalid('empty_update', 'Send at least one of name, description or definition.', 'body');
    }
    const data: SegmentWrite = { name: input.name, description: input.description };
    if (input.definition !== undefined) {
      data.definition = parseAudienceDefinition(input.definition);
      data.referencedSegmentIds = segmentIdsOf(data.definition);
    }
    const { segment, compiled } = await this.segments.locked(workspaceId, async (tx) => {
      const compiled = data.definition ? await this.audience.compile(workspaceId, data.definition, id, tx) : undefined;
      const segment = await this.segments.update(tx, workspaceId, id, data);
      if (segment && data.definition) await this.referrersStillCompile(tx, workspaceId, id);
      return { segment, compiled };
    });
    if (!segment) throw EmailErrors.notFound('segment', id);
    return this.withFreshCounts(workspaceId, segment, compiled);
  }

  /** Refused with 409 while anything uses the segment; the lock keeps a reference from being saved meanwhile. */
  async delete(workspaceId: WorkspaceId, id: string): Promise<void> {
    const deleted = await this.segments.locked(workspaceId, async (tx: SegmentTx) => {
      if (!(await this.segments.find(workspaceId, id, tx))) return false;
      const uses = await this.references.referencing(tx, workspaceId, { segmentId: id });
      if (uses.length) {
        throw EmailErrors.fail('segment_in_use', `The segment is used by ${describeUses(uses)}; remove it there first.`, { extra: { used_by: uses } });
      }
      return this.segments.delete(tx, workspaceId, id);
    });
    if (!deleted) throw EmailErrors.notFound('segment', id);
  }

  /** Counts for an unsaved definition, by the statement a send would run; `current_segment_id` catches cycles back to it. */
  async preview(workspaceId: WorkspaceId, input: SegmentPreviewRequestDto): Promise<SegmentPreviewDto> {
    const compiled = await this.audience.compile(workspaceId, parseAudienceDefinition(input.definition), input.current_segment_id ?? null);
    const counts = await this.audience.count(compiled);
    return { confirmed_subscriber_count: counts.confirmed, total_subscriber_count: counts.total };
  }

  /**
   * Run after the update, inside its transaction: every segment that reaches the edited one now expands its new
   * definition, so it must still nest at most five deep and stay within the expanded size; a refusal rolls the edit back.
   * Other failures of theirs (a definition that no longer compiled before) are not this edit's doing.
   */
  private async referrersStillCompile(tx: SegmentTx, workspaceId: WorkspaceId, id: string): Promise<void> {
    for (const referrer of await this.segments.referrersOf(tx, workspaceId, id)) {
      try {
        await this.audience.compile(workspaceId, parseAudienceDefinition(referrer.definition), referrer.id, tx);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const code = error.code as EditBreak;
        if (!EDIT_BREAKS.includes(code)) continue;
        throw EmailErrors.invalid(code, `Segment "${referrer.name}" uses this one and would no longer compile. ${error.message}`, 'definition');
      }
    }
  }

  /**
   * Counting is not part of the write: a create or update has committed by now, so it must answer success whatever
   * counting does. When counting fails, the record reads with the last counts it had (a new one: zero, without
   * `counts_refreshed_at`); a stored definition that no longer compiles (a custom field it names was deleted) keeps
   * them, and any other failure (a statement timeout, the store away) is logged and a background recount is asked for.
   */
  private async withFreshCounts(workspaceId: WorkspaceId, segment: Segment, compiled?: CompiledAudience): Promise<SegmentDto> {
    try {
      const counted = await this.counter.recount(workspaceId, segment, compiled);
      return toSegmentDto(segment, counted, counted.countedAt);
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500) {
        this.logger.warn(`could not count segment ${segment.id}: ${error instanceof Error ? error.message : String(error)}`);
        this.countRequests.request(workspaceId, [segment.id]);
      }
      return toSegmentDto(segment, cachedCounts(segment), segment.counts_refreshed_at);
    }
  }
}
