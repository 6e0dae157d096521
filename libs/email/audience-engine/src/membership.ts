import { Prisma } from '@email/data-access';
import type { WorkspaceId } from '@shared/core';

/** Tag and sequence membership: the audience conditions and the subscriber list's filters build the same predicates here. */
export const TAG_OPERATORS = ['has_any_of', 'has_none_of'] as const;
export const SEQUENCE_OPERATORS = [
  'is_active_in_any_of',
  'is_not_active_in_any_of',
  'has_completed_any_of',
  'has_not_completed_any_of',
  'has_ever_been_in_any_of',
  'has_never_been_in_any_of',
] as const;

export type TagOperator = (typeof TAG_OPERATORS)[number];
export type SequenceOperator = (typeof SEQUENCE_OPERATORS)[number];

/** Negative operators are the exact complement of their positive: a NULL counts as not matching. */
export const not = (predicate: Prisma.Sql): Prisma.Sql => Prisma.sql`NOT coalesce((${predicate}), false)`;

/** Subscribers `s` of the workspace with (or, for has_none_of, without) any of the tags. */
export function tagMembership(workspaceId: WorkspaceId, tagIds: readonly string[], operator: TagOperator): Prisma.Sql {
  const exists = Prisma.sql`EXISTS (
  SELECT 1 FROM subscriber_tags st
  WHERE st.workspace_id = ${workspaceId} AND st.subscriber_id = s.id AND st.tag_id = ANY(${tagIds}::text[]))`;
  return operator === 'has_none_of' ? not(exists) : exists;
}

/** Enrolment states each positive sequence operator looks for (null: any state), and which operators negate which. */
const SEQUENCE_RULES: Record<SequenceOperator, { states: string[] | null; negate: boolean }> = {
  is_active_in_any_of: { states: ['active'], negate: false },
  is_not_active_in_any_of: { states: ['active'], negate: true },
  has_completed_any_of: { states: ['completed'], negate: false },
  has_not_completed_any_of: { states: ['completed'], negate: true },
  has_ever_been_in_any_of: { states: null, negate: false },
  has_never_been_in_any_of: { states: null, negate: true },
};

/** Subscribers `s` of the workspace whose enrolment in any of the sequences matches the operator. */
export function sequenceMembership(workspaceId: WorkspaceId, sequenceIds: readonly string[], operator: SequenceOperator): Prisma.Sql {
  const { states, negate } = SEQUENCE_RULES[operator];
  const exists = Prisma.sql`EXISTS (
  SELECT 1 FROM sequence_enrollments e
  WHERE e.workspace_id = ${workspaceId} AND e.subscriber_id = s.id AND e.sequence_id = ANY(${sequenceIds}::text[])
    ${states ? Prisma.sql`AND e.state::text = ANY(${states}::text[])` : Prisma.empty})`;
  return negate ? not(exists) : exists;
}
