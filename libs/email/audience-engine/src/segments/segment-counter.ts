import { Injectable } from '@nestjs/common';
import type { Segment } from '@email/data-access';
import { Clock, WorkspaceId } from '@shared/core';
import { parseAudienceDefinition } from '../audience-definition';
import { AudienceCount, AudienceRepository, CompiledAudience } from '../audience.repository';
import { SegmentRepository } from './segment.repository';

/** How long list pages may show a segment's cached counts before a background recount is asked for. */
export const SEGMENT_COUNT_MAX_AGE_MS = 5 * 60_000;

export const countsAreStale = (segment: Pick<Segment, 'counts_refreshed_at'>, now: Date): boolean =>
  segment.counts_refreshed_at === null || now.getTime() - segment.counts_refreshed_at.getTime() > SEGMENT_COUNT_MAX_AGE_MS;

export interface CountedSegment extends AudienceCount {
  countedAt: Date;
}

/** Counts a saved segment with the same compiled statement a send will page through, and caches the result on its row. */
@Injectable()
export class SegmentCounter {
  constructor(
    private readonly segments: SegmentRepository,
    private readonly audience: AudienceRepository,
    private readonly clock: Clock,
  ) {}

  /** `compiled`: the segment's definition as its writer just compiled it, so it is not compiled a second time. */
  async recount(workspaceId: WorkspaceId, segment: Pick<Segment, 'id' | 'definition'>, compiled?: CompiledAudience): Promise<CountedSegment> {
    const countedAt = this.clock.now();
    compiled ??= await this.audience.compile(workspaceId, parseAudienceDefinition(segment.definition), segment.id);
    const counts = await this.audience.count(compiled);
    await this.segments.saveCounts(workspaceId, segment.id, counts, countedAt);
    return { ...counts, countedAt };
  }

  /** For the background job: the segment may have been deleted since it was queued. */
  async recountById(workspaceId: WorkspaceId, segmentId: string): Promise<CountedSegment | null> {
    const segment = await this.segments.find(workspaceId, segmentId);
    return segment ? this.recount(workspaceId, segment) : null;
  }
}
