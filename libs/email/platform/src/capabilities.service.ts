import { Injectable } from '@nestjs/common';
import { Principal } from '@shared/auth';
import { trustedWorkspaceId } from '@shared/core';
import { DeliveryConnectionStateService } from '@email/delivery';
import { ApiDescription } from './api-description';
import { CapabilitiesCaller } from './capabilities';
import { CapabilitiesDto } from './capabilities.dto';

/** The credential view and workspace the email verifier puts on `principal.credential`. */
interface EmailCredentialContext {
  view: CapabilitiesCaller['credential'];
  workspace: CapabilitiesCaller['workspace'];
}

function isEmailCredentialContext(value: unknown): value is EmailCredentialContext {
  const candidate = value as Partial<EmailCredentialContext> | null;
  return typeof candidate?.view === 'object' && candidate.view !== null && typeof candidate.workspace?.id === 'string';
}

/** GET /v1/capabilities: what this credential can call now, from the cached catalogue plus one cheap check when needed. */
@Injectable()
export class CapabilitiesService {
  constructor(
    private readonly description: ApiDescription,
    private readonly connections: DeliveryConnectionStateService,
  ) {}

  async forPrincipal(principal: Principal): Promise<CapabilitiesDto> {
    if (!isEmailCredentialContext(principal.credential)) throw new Error(`Unsupported credential type for capabilities: ${principal.credentialType}`);
    const { view, workspace } = principal.credential;
    const catalog = this.description.capabilities;
    // Delivery is asked only when this credential could call an operation that needs a delivery connection.
    // An email credential's subject is the workspace it was issued for, checked when the credential was verified.
    const connection = catalog.gatedFor(principal.scopes).length ? await this.connections.stateOf(trustedWorkspaceId(principal.subjectId)) : 'enabled';
    return catalog.build({ credential: view, workspace, scopes: principal.scopes }, connection);
  }
}
