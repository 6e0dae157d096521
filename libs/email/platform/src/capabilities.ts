import { AppConfig } from '@shared/config';
import { EMAIL_SCOPES } from '@email/access';
import { API_VERSION, buildApiMetadata } from './api-metadata';
import { ApiOperationInfo } from './api-operations';
import { API_RESOURCE_GROUPS, isPlatformPath, resourceGroupFor } from './api-resources';
import { CapabilitiesDto, CapabilityLimitationDto, CapabilityOperationDto, CapabilityResourceDto } from './capabilities.dto';
import { connectionsGuideUrl, type DeliveryConnectionState } from '@email/delivery';
import { EVENT_PATTERNS, EVENT_TYPES, WEBHOOK_SIGNING } from '@email/events';
import { UNAVAILABLE_FEATURES } from './unavailable-features';
import { McpSelection, selectMcpOperations } from './mcp-selection';

/**
 * Operations that create something able to send email. They are withheld while the workspace has no
 * enabled email delivery connection; only those the app implements are ever considered.
 */
export const DELIVERY_CONNECTION_GATED_OPERATIONS: readonly string[] = [
  'createBroadcast',
  'createSequence',
  'createAutomation',
  'createForm',
  'createLandingPage',
];

export type CapabilitiesConfig = Pick<AppConfig, 'publicBaseUrl' | 'docsBaseUrl' | 'appBaseUrl'>;

/** What the caller is: the credential as clients see it, its workspace and its scopes. */
export interface CapabilitiesCaller {
  credential: CapabilitiesDto['credential'];
  workspace: { id: string; name: string };
  scopes: readonly string[];
}

interface Callable {
  /** Operations the scopes allow, in document order. */
  operations: ApiOperationInfo[];
  /** Those among them that need an enabled delivery connection. */
  gated: string[];
  resources: CapabilityResourceDto[];
  /** The features this server does not offer yet, each with the operations of it these scopes would allow. */
  unavailable: CapabilityLimitationDto[];
}

const MEMO_LIMIT = 512;

/**
 * Builds the capabilities document from the app's own operations (listApiOperations of its OpenAPI
 * document). Everything that depends only on the document, the configuration or the scope set is
 * computed once and reused; a request adds only its credential, workspace and any limitation.
 */
export class CapabilitiesCatalog {
  private readonly listed: ApiOperationInfo[];
  private readonly implementedIds: string[];
  private readonly gatedIds: Set<string>;
  private readonly fixed: Omit<CapabilitiesDto, 'workspace' | 'credential' | 'limitations' | 'resources'>;
  private readonly memo = new Map<string, Callable>();

  constructor(
    operations: readonly ApiOperationInfo[],
    private readonly config: CapabilitiesConfig,
    gatedOperationIds: readonly string[] = DELIVERY_CONNECTION_GATED_OPERATIONS,
  ) {
    this.listed = operations.filter((op) => !op.isPublic && !isPlatformPath(op.path));
    this.implementedIds = operations.map((op) => op.operationId);
    this.gatedIds = new Set(gatedOperationIds.filter((id) => this.listed.some((op) => op.operationId === id)));
    const { version: _version, capabilities_url: _capabilities, ...discovery } = buildApiMetadata(config);
    this.fixed = {
      version: API_VERSION,
      authentication: {
        type: 'bearer',
        header_name: 'Authorization',
        header_value_prefix: 'Bearer ',
        workspace_scoped: true,
        scopes_supported: [...EMAIL_SCOPES],
        supported_credential_types: ['workspace_api_key', 'oauth_access_token'],
      },
      discovery,
      sdks: {
        typescript: { package_name: '@mailrith/sdk', docs_url: discovery.typescript_sdk_url, language: 'typescript' },
        python: { package_name: 'mailrith-sdk', docs_url: discovery.python_sdk_url, language: 'python' },
      },
      mcp: {
        package_name: '@mailrith/mcp-server',
        docs_url: discovery.mcp_docs_url,
        server_url: discovery.mcp_url,
        recommended_transport: 'streamable_http',
        supported_transports: ['streamable_http', 'stdio'],
      },
      conventions: {
        pagination_type: 'cursor',
        pagination_limit_param: 'limit',
        pagination_cursor_param: 'starting_after',
        idempotency_header: 'Idempotency-Key',
      },
      capability_mode: 'effective',
      events: {
        subscriptions_url: discovery.webhook_subscriptions_url,
        supported_events: [...EVENT_TYPES],
        supported_event_patterns: [...EVENT_PATTERNS],
        signing: { ...WEBHOOK_SIGNING },
      },
    };
  }

  /** Operation ids this credential could call but that wait for an enabled delivery connection. */
  gatedFor(scopes: readonly string[]): string[] {
    return this.callable(scopes).gated;
  }

  /** The operation ids an MCP connection with this selection exposes (every served operation it selects, in document order). */
  mcpOperationIds(selection: McpSelection): string[] {
    return selectMcpOperations(this.implementedIds, selection).map((op) => op.operationId);
  }

  /**
   * The document for one caller. `connection` matters only when gatedFor(scopes) is not empty. `via` is the MCP
   * selection of a call made through an MCP connection: resources narrow to its operations, and `mcp` says which.
   */
  build(caller: CapabilitiesCaller, connection: DeliveryConnectionState = 'enabled', via?: McpSelection): CapabilitiesDto {
    const callable = this.callable(caller.scopes);
    const withheld = connection === 'enabled' ? [] : callable.gated;
    const limitations: CapabilityLimitationDto[] = [
      ...(connection !== 'enabled' && withheld.length ? [this.limitation(connection, withheld, caller.workspace.id)] : []),
      ...callable.unavailable,
    ];
    const active = via ? new Set(this.mcpOperationIds(via)) : undefined;
    const resources =
      withheld.length || active
        ? group(callable.operations.filter((op) => !withheld.includes(op.operationId) && (!active || active.has(op.operationId))))
        : callable.resources;
    const { version, authentication, discovery, sdks, conventions, capability_mode, events } = this.fixed;
    const mcp = via ? { ...this.fixed.mcp, active_toolsets: [...via.toolsets], active_operation_ids: [...active!], read_only: via.readOnly } : this.fixed.mcp;
    return {
      version,
      workspace: { id: caller.workspace.id, name: caller.workspace.name },
      authentication,
      credential: caller.credential,
      discovery,
      sdks,
      mcp,
      conventions,
      capability_mode,
      limitations,
      events,
      resources,
    };
  }

  private callable(scopes: readonly string[]): Callable {
    const held = new Set(scopes);
    const key = [...held].sort().join(' ');
    let entry = this.memo.get(key);
    if (!entry) {
      const operations = this.listed.filter((op) => grants(held, op.requiredScopes));
      entry = {
        operations,
        gated: operations.filter((op) => this.gatedIds.has(op.operationId)).map((op) => op.operationId),
        resources: group(operations),
        unavailable: UNAVAILABLE_FEATURES.map(({ code, message, operations: planned }) => ({
          code,
          message,
          affected_operation_ids: planned.filter((op) => grants(held, op.requiredScopes)).map((op) => op.operationId),
        })),
      };
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(key, entry);
    }
    return entry;
  }

  private limitation(connection: Exclude<DeliveryConnectionState, 'enabled'>, operationIds: string[], workspaceId: string): CapabilityLimitationDto {
    const message =
      connection === 'missing'
        ? 'This workspace has no email delivery connection yet, so operations that create email-sending resources are not available. Set up a connection, then fetch the capabilities again.'
        : 'Every email delivery connection of this workspace is disabled, so operations that create email-sending resources are not available. Enable a connection, then fetch the capabilities again.';
    return {
      code: connection === 'missing' ? 'email_delivery_connection_missing' : 'email_delivery_connection_disabled',
      message,
      affected_operation_ids: [...operationIds],
      setup_url: connectionsGuideUrl(this.config.appBaseUrl, workspaceId),
    };
  }
}

const grants = (held: ReadonlySet<string>, required: readonly string[]) => required.every((scope) => held.has(scope));

const GROUP_ORDER = new Map(API_RESOURCE_GROUPS.map((group, index) => [group.key, index]));

/** Groups operations into resources in published order (unknown groups last); empty resources are left out. */
function group(operations: readonly ApiOperationInfo[]): CapabilityResourceDto[] {
  const resources = new Map<string, CapabilityResourceDto>();
  for (const op of operations) {
    const { key, name, description } = resourceGroupFor(op.path);
    let resource = resources.get(key);
    if (!resource) resources.set(key, (resource = { key, name, description, operations: [] }));
    resource.operations.push(toCapabilityOperation(op));
  }
  return [...resources.values()].sort((a, b) => (GROUP_ORDER.get(a.key) ?? 1e6) - (GROUP_ORDER.get(b.key) ?? 1e6));
}

function toCapabilityOperation(op: ApiOperationInfo): CapabilityOperationDto {
  return { method: op.method, path: op.path, operation_id: op.operationId, summary: op.summary, required_scopes: [...op.requiredScopes] };
}
