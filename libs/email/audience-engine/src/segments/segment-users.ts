import { Injectable } from '@nestjs/common';
import type { Prisma } from '@email/data-access';
import type { WorkspaceId } from '@shared/core';

/** A record an audience condition can name: deleting it would silently change who the audience selects. */
export type AudienceReference = { customFieldId: string } | { tagId: string } | { segmentId: string };

/** Something whose audience names a reference, so the referenced record cannot be deleted while it does. */
export interface AudienceUse {
  type: 'segment' | 'broadcast' | 'sequence' | 'automation';
  id: string;
  name: string;
}

/** One kind of record that stores audience definitions (segments, broadcasts; sequences and automations to come). */
export interface AudienceReferrer {
  /** Called inside the deleting transaction: read through `tx`, whose connection holds the workspace's segment lock. */
  referencing(tx: Prisma.TransactionClient, workspaceId: WorkspaceId, reference: AudienceReference): Promise<AudienceUse[]>;
}

/**
 * Everything whose audience names a tag, a custom field or a segment, asked before one of those is deleted. Features
 * that store definitions register here when their module starts (they live in libraries that depend on this one).
 */
@Injectable()
export class AudienceReferences {
  private readonly referrers: AudienceReferrer[] = [];

  register(referrer: AudienceReferrer): void {
    this.referrers.push(referrer);
  }

  async referencing(tx: Prisma.TransactionClient, workspaceId: WorkspaceId, reference: AudienceReference): Promise<AudienceUse[]> {
    return (await Promise.all(this.referrers.map((referrer) => referrer.referencing(tx, workspaceId, reference)))).flat();
  }
}

/** "segment "VIP" and broadcast "Autumn news"": the uses as a sentence names them. */
export const describeUses = (uses: readonly AudienceUse[]): string => uses.map((use) => `${use.type} "${use.name}"`).join(', ');

/** Condition paths per reference (lax jsonpath: `@.value == $id` also matches an id inside a list value). */
export function referencePath(reference: AudienceReference): { path: string; id: string } {
  if ('customFieldId' in reference)
    return { path: '$.groups[*].conditions[*] ? (@.field == "custom_field" && @.customFieldId == $id)', id: reference.customFieldId };
  if ('tagId' in reference) return { path: '$.groups[*].conditions[*] ? (@.field == "tag" && @.value == $id)', id: reference.tagId };
  return { path: '$.groups[*].conditions[*] ? (@.field == "segment" && @.value == $id)', id: reference.segmentId };
}
