import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { EmailErrors } from '@email/contracts';
import { EmailPrisma } from '@email/data-access';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import { DeliveryConnectionRepository } from '../delivery-connection.repository';
import { SetupRequestDto, SetupSessionDto, SetupStatus } from './connection.dto';
import { SetupSessionRepository, SetupSessionRow } from './setup-session.repository';

/** How long a setup link works. Long enough to look up credentials in the provider's console, short enough to be useless when leaked later. */
export const SETUP_LINK_TTL_MS = 30 * 60 * 1000;
/** The path of the browser page; the token after it is the only authority. */
export const SETUP_PAGE_PATH = '/setup/email-delivery';

export const tokenDigest = (token: string): string => createHash('sha256').update(token).digest('hex');

/** What a session reads as now: a pending session past its expiry is expired, whether or not a write recorded it. */
export function effectiveStatus(session: SetupSessionRow, now: Date): SetupStatus {
  if (session.status === 'pending' && session.expires_at <= now) return 'expired';
  return session.status as SetupStatus;
}

/** The API side of setup sessions: start, read, renew. The browser page is SetupPageService. */
@Injectable()
export class SetupSessionService {
  constructor(
    private readonly sessions: SetupSessionRepository,
    private readonly connections: DeliveryConnectionRepository,
    private readonly prisma: EmailPrisma,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'publicBaseUrl'>,
  ) {}

  async start(workspaceId: WorkspaceId, request: SetupRequestDto): Promise<SetupSessionDto> {
    const purpose = request.purpose ?? 'create';
    if (purpose === 'create') {
      if (request.connection_id !== undefined) throw invalid('connection_id is only for purpose replace_credentials.', 'connection_id');
      for (const field of ['name', 'provider', 'from_email', 'from_name'] as const) {
        if (request[field] === undefined) throw invalid(`${field} is required to set up a new connection.`, field);
      }
    } else {
      if (request.connection_id === undefined) throw invalid('connection_id is required to replace credentials.', 'connection_id');
      const connection = await this.connections.find(workspaceId, request.connection_id);
      if (!connection) {
        throw EmailErrors.invalid(
          'unknown_email_delivery_connection',
          `The workspace has no email delivery connection "${request.connection_id}".`,
          'connection_id',
        );
      }
      if (request.provider !== undefined && request.provider !== connection.provider) {
        throw invalid(
          `A credentials replacement keeps the connection's provider (${connection.provider}); set up a new connection for another provider.`,
          'provider',
        );
      }
    }
    return this.open(workspaceId, {
      purpose,
      connection_id: request.connection_id ?? null,
      name: request.name ?? null,
      provider: request.provider ?? null,
      from_email: request.from_email ?? null,
      from_name: request.from_name ?? null,
    });
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<SetupSessionDto> {
    const session = await this.sessions.find(workspaceId, id);
    if (!session) throw EmailErrors.notFound('email_delivery_connection_setup_session', id);
    return this.toDto(session);
  }

  /** A fresh link with the same defaults; the old link stops working. A completed session has done its job: 409. */
  async renew(workspaceId: WorkspaceId, id: string): Promise<SetupSessionDto> {
    const session = await this.sessions.find(workspaceId, id);
    if (!session) throw EmailErrors.notFound('email_delivery_connection_setup_session', id);
    if (session.status === 'completed') {
      throw EmailErrors.fail('setup_session_not_renewable', 'This setup session already completed; start a new setup session to change the credentials again.');
    }
    return this.prisma.$transaction(async (tx) => {
      await this.sessions.finish(workspaceId, id, { status: 'expired' }, tx);
      const { purpose, connection_id, name, provider, from_email, from_name } = session;
      return this.open(workspaceId, { purpose, connection_id, name, provider, from_email, from_name }, tx);
    });
  }

  toDto(session: SetupSessionRow, setupUrl?: string): SetupSessionDto {
    return {
      self: `/v1/email-delivery-connection-setup-sessions/${session.id}`,
      id: session.id,
      purpose: session.purpose as SetupSessionDto['purpose'],
      status: effectiveStatus(session, this.clock.now()),
      ...(setupUrl ? { setup_url: setupUrl } : {}),
      connection_id: session.connection_id,
      expires_at: session.expires_at.toISOString(),
      completed_at: session.completed_at?.toISOString() ?? null,
      failed_at: session.failed_at?.toISOString() ?? null,
      failure_code: session.failure_code === 'setup_action_failed' ? 'setup_action_failed' : null,
    };
  }

  private async open(
    workspaceId: WorkspaceId,
    defaults: Pick<SetupSessionRow, 'purpose' | 'connection_id' | 'name' | 'provider' | 'from_email' | 'from_name'>,
    db?: Parameters<SetupSessionRepository['create']>[2],
  ): Promise<SetupSessionDto> {
    const token = randomBytes(32).toString('base64url');
    const session = await this.sessions.create(
      workspaceId,
      { id: this.ids.newId('eds'), ...defaults, token_hash: tokenDigest(token), expires_at: new Date(this.clock.now().getTime() + SETUP_LINK_TTL_MS) },
      db,
    );
    return this.toDto(session, `${this.config.publicBaseUrl}${SETUP_PAGE_PATH}/${token}`);
  }
}

const invalid = (message: string, field: string) => EmailErrors.invalid('validation_failed', message, field);

/** Where a person is sent to connect a provider when a workspace has none (capabilities, the create prerequisite). */
export const CONNECTIONS_GUIDE_PATH = '/email-delivery-connections';
export const connectionsGuideUrl = (appBaseUrl: string, workspaceId: string): string =>
  `${appBaseUrl}${CONNECTIONS_GUIDE_PATH}?workspace=${encodeURIComponent(workspaceId)}`;
