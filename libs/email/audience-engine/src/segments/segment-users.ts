import type { Prisma } from '@email/data-access';
import type { WorkspaceId } from '@shared/core';

/** Something that uses a saved segment, so the segment cannot be deleted while it does. */
export interface SegmentUse {
  type: 'segment' | 'broadcast' | 'sequence' | 'automation';
  id: string;
  name: string;
}

/** One kind of record that can use segments; each feature that stores segment ids registers one. */
export interface SegmentUser {
  /** Called inside the deleting transaction: read through `tx`, whose connection holds the workspace's segment lock. */
  usesOf(workspaceId: WorkspaceId, segmentId: string, tx: Prisma.TransactionClient): Promise<SegmentUse[]>;
}

/** The registered SegmentUsers (today: other segments; broadcasts, sequences and automations add theirs). */
export const SEGMENT_USERS = Symbol('SEGMENT_USERS');
