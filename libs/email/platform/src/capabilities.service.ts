import { Injectable } from '@nestjs/common';
import { EmailWorkspaceContext } from '@email/access';
import { DeliveryConnectionStateService } from '@email/delivery';
import { ApiDescription } from './api-description';
import { CapabilitiesDto } from './capabilities.dto';
import { McpSelection } from './mcp-selection';

/** GET /v1/capabilities: what this credential can call now, from the cached catalogue plus one cheap check when needed. */
@Injectable()
export class CapabilitiesService {
  constructor(
    private readonly description: ApiDescription,
    private readonly connections: DeliveryConnectionStateService,
  ) {}

  /** `via`: the MCP selection when the call comes through an MCP connection (see mcpSelectionFromHeaders). */
  async forWorkspace(context: EmailWorkspaceContext, via?: McpSelection): Promise<CapabilitiesDto> {
    const { view, workspace } = context.credential;
    const { scopes } = context.principal;
    const catalog = this.description.capabilities;
    // Delivery is asked only when this credential could call an operation that needs a delivery connection.
    const connection = catalog.gatedFor(scopes).length ? await this.connections.stateOf(context.workspaceId) : 'enabled';
    return catalog.build({ credential: view, workspace, scopes }, connection, via);
  }
}
