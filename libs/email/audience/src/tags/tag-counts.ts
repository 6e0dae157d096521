import { randomInt } from 'node:crypto';
import { Prisma, Tag } from '@email/data-access';
import { WorkspaceId } from '@shared/core';

/**
 * How many shards a tag's subscriber count is spread over. A membership writer adds its +1/-1 to one shard picked
 * at random, so two concurrent writers of the same tag wait on each other only when they pick the same shard, not
 * always (the tag row was one lock every writer of a popular tag queued on). Reading sums at most this many rows.
 */
export const TAG_COUNT_SHARDS = 32;

/**
 * Adds `delta` to one shard of each of the workspace's given tags, in tag id order (so writers of several tags lock
 * shards in one order). A tag deleted meanwhile is skipped (its key-share lock finds the row gone), never a key error.
 */
export function tagCountChange(workspaceId: WorkspaceId, tagIds: string[], delta: 1 | -1, shard = randomInt(TAG_COUNT_SHARDS)): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO tag_count_shards (tag_id, shard, workspace_id, delta)
    SELECT t.id, ${shard}::smallint, t.workspace_id, ${delta}::int FROM tags t
    WHERE t.workspace_id = ${workspaceId} AND t.id = ANY(${tagIds}::text[]) ORDER BY t.id FOR KEY SHARE
    ON CONFLICT (tag_id, shard) DO UPDATE SET delta = tag_count_shards.delta + EXCLUDED.delta`;
}

/** A tag read with its shards' deltas (Prisma `include: { count_shards: SHARD_DELTAS }`). */
export type TagWithShards = Tag & { count_shards: Array<{ delta: number }> };

/** The shards' deltas to include with a tag (the workspace named, as in every statement). */
export const shardDeltas = (workspaceId: WorkspaceId) => ({ where: { workspace_id: workspaceId }, select: { delta: true } }) as const;

/** The tag with `subscriber_count` as its exact count: the tag row's base plus its shards. */
export function withExactCount({ count_shards, ...tag }: TagWithShards): Tag {
  return { ...tag, subscriber_count: count_shards.reduce((sum, shard) => sum + shard.delta, tag.subscriber_count) };
}
