import { Injectable } from '@nestjs/common';
import { DeliveryConnection } from '@email/data-access';
import { WorkspaceId } from '@shared/core';
import { CursorCodec, Page, PageQueryDto, keysetList } from '@shared/pagination';
import { EmailErrors } from '@email/contracts';
import { SenderIdentityDto } from './sender-identity.dto';
import { DeliveryConnectionRepository } from './delivery-connection.repository';

export function toSenderIdentityDto(connection: DeliveryConnection): SenderIdentityDto {
  return {
    self: `/v1/sender-identities/${connection.id}`,
    id: connection.id,
    name: connection.name,
    provider: connection.provider,
    from_name: connection.from_name,
    from_email: connection.from_email,
    ready_for_selection: true,
    created_at: connection.created_at.toISOString(),
    updated_at: connection.updated_at.toISOString(),
  };
}

/** Sender identities are the workspace's enabled delivery connections, seen without their settings. */
@Injectable()
export class SenderIdentityService {
  constructor(
    private readonly repository: DeliveryConnectionRepository,
    private readonly cursors: CursorCodec,
  ) {}

  async list(workspaceId: WorkspaceId, query: PageQueryDto): Promise<Page<SenderIdentityDto>> {
    return keysetList(this.cursors, `${workspaceId}:sender_identities`, query, (page) => this.repository.listEnabled(workspaceId, page), toSenderIdentityDto);
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<SenderIdentityDto> {
    const connection = await this.repository.findEnabled(workspaceId, id);
    if (!connection) throw EmailErrors.notFound('sender_identity', id);
    return toSenderIdentityDto(connection);
  }
}
