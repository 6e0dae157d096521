import { Injectable } from '@nestjs/common';
import { Tag } from '@email/data-access';
import { IdGenerator, WorkspaceId } from '@shared/core';
import { CursorCodec, Page, keysetList } from '@shared/pagination';
import { EmailErrors } from '@email/contracts';
import { AudienceReferences, describeUses, SegmentRepository } from '@email/audience-engine';
import { TagCreateRequestDto, TagDto, TagUpdateRequestDto } from './tag.dto';
import { TagRepository } from './tag.repository';

export function toTagDto(tag: Tag): TagDto {
  return {
    self: `/v1/tags/${tag.id}`,
    id: tag.id,
    name: tag.name,
    description: tag.description,
    gdpr_consent_purpose: tag.gdpr_consent_purpose,
    subscriber_count: Math.max(0, tag.subscriber_count),
    created_at: tag.created_at.toISOString(),
    updated_at: tag.updated_at.toISOString(),
  };
}

@Injectable()
export class TagService {
  constructor(
    private readonly repository: TagRepository,
    private readonly segments: SegmentRepository,
    private readonly references: AudienceReferences,
    private readonly ids: IdGenerator,
    private readonly cursors: CursorCodec,
  ) {}

  async list(workspaceId: WorkspaceId, query: { limit?: string; starting_after?: string; search?: string }): Promise<Page<TagDto>> {
    const search = query.search?.trim() || undefined;
    return keysetList(this.cursors, `${workspaceId}:tags`, query, (page) => this.repository.list(workspaceId, page, search), toTagDto);
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<TagDto> {
    const tag = await this.repository.find(workspaceId, id);
    if (!tag) throw EmailErrors.notFound('tag', id);
    return toTagDto(tag);
  }

  async create(workspaceId: WorkspaceId, input: TagCreateRequestDto): Promise<TagDto> {
    return toTagDto(await this.repository.create(workspaceId, { id: this.ids.newId('tag'), name: input.name, description: input.description ?? null }));
  }

  async update(workspaceId: WorkspaceId, id: string, input: TagUpdateRequestDto): Promise<TagDto> {
    if (input.name === undefined && input.description === undefined) {
      throw EmailErrors.invalid('empty_update', 'Send at least one of name or description.', 'body');
    }
    const tag = await this.repository.update(workspaceId, id, input);
    if (!tag) throw EmailErrors.notFound('tag', id);
    return toTagDto(tag);
  }

  /**
   * Refused while a segment or a broadcast has a condition on the tag (it would silently select other people). Under the
   * workspace's segment lock, so no segment can start naming the tag between the check and the delete.
   */
  async delete(workspaceId: WorkspaceId, id: string): Promise<void> {
    const deleted = await this.segments.locked(workspaceId, async (tx) => {
      const uses = await this.references.referencing(tx, workspaceId, { tagId: id });
      if (uses.length) {
        throw EmailErrors.fail('tag_in_use', `This tag is used by a condition of ${describeUses(uses)}; change ${uses.length === 1 ? 'it' : 'them'} first.`, {
          extra: { used_by: uses },
        });
      }
      return this.repository.delete(workspaceId, id, tx);
    });
    if (!deleted) throw EmailErrors.notFound('tag', id);
  }
}
