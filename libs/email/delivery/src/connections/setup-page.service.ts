import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DeliveryConnection, EmailPrisma, Prisma } from '@email/data-access';
import { Clock, IdGenerator, trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { WorkspaceService } from '@email/workspace';
import { DeliveryConnectionRepository } from '../delivery-connection.repository';
import { DeliveryFailureReason } from '../providers/delivery-provider';
import { ProviderSettingsError } from '../providers/provider-settings-error';
import { DeliveryProviderName, isDeliveryProvider, PROVIDER_DESCRIPTIONS, ProviderDescription } from '../providers/provider-settings';
import { ConnectionProviders } from './connection-providers';
import { ConnectionSecrets } from './connection-secrets';
import { EnteredSettings, publicConfig } from './connection-mapping';
import { readEnteredSettings } from './entered-settings';
import { effectiveStatus, tokenDigest } from './setup-session.service';
import { SetupSessionRepository, SetupSessionRow } from './setup-session.repository';

/** Failed connection tests a link allows before the session ends as failed (`setup_action_failed`). */
export const SETUP_TEST_ATTEMPTS = 5;

export interface SetupFormView {
  state: 'form';
  workspaceName: string;
  purpose: 'create' | 'replace_credentials';
  provider: ProviderDescription;
  connectionName: string;
  sender: { name: string; email: string };
  /** What the person typed, secrets excluded: they are never sent back to the browser. */
  values: Record<string, string>;
  fieldErrors: Record<string, string>;
  /** The live test's result in plain words, when it failed. */
  testFailure?: string;
  attemptsLeft: number;
  expiresAt: Date;
}

export interface SetupDoneView {
  state: 'done';
  workspaceName: string;
  connectionId: string;
  connectionName: string;
  provider: ProviderDescription;
  /** Where the provider should post bounces and complaints, and the token some providers send with them. */
  feedback: { path: string; token: string };
}

export type SetupPageView = { state: 'invalid' } | { state: 'closed'; status: 'completed' | 'failed' | 'expired' } | SetupFormView | SetupDoneView;

const feedbackPath = (connectionId: string) => `/v1/delivery-feedback/${connectionId}`;

/** The browser page of a setup session: what it shows, and the submit that tests the credentials and saves them. */
@Injectable()
export class SetupPageService {
  private readonly logger = new Logger('SetupPage');

  constructor(
    private readonly sessions: SetupSessionRepository,
    private readonly connections: DeliveryConnectionRepository,
    private readonly providers: ConnectionProviders,
    private readonly secrets: ConnectionSecrets,
    private readonly workspaces: WorkspaceService,
    private readonly prisma: EmailPrisma,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async view(token: string): Promise<SetupPageView> {
    const found = await this.usable(token);
    if (found.state !== 'usable') return found.view;
    return this.form(found.session, found.workspaceId, found.connection, {}, {});
  }

  /** Checks the entered settings, tests them against the provider, and on success saves them (once per link). */
  async submit(token: string, fields: Record<string, unknown>): Promise<SetupPageView> {
    const found = await this.usable(token);
    if (found.state !== 'usable') return found.view;
    const { session, workspaceId, connection } = found;
    const provider = this.providerOf(session, connection);
    const entered = readEnteredSettings(PROVIDER_DESCRIPTIONS[provider], fields);
    const values = Object.fromEntries(Object.entries(entered.config).map(([key, value]) => [key, value === null ? '' : String(value)]));
    if (Object.keys(entered.errors).length) return this.form(session, workspaceId, connection, values, entered.errors);

    const settings = { config: entered.config, secrets: entered.secrets };
    let check: { ok: true } | { ok: false; reason: DeliveryFailureReason };
    try {
      const result = await this.providers.forSettings(provider, settings).verify();
      check = result.ok ? { ok: true } : { ok: false, reason: result.reason };
    } catch (error) {
      if (!(error instanceof ProviderSettingsError)) throw error;
      return this.form(session, workspaceId, connection, values, { [error.field]: error.message });
    }
    if (!check.ok) return this.failedTest(session, workspaceId, connection, values, check.reason);

    const saved = await this.save(session, workspaceId, connection, provider, settings);
    if (!saved) return { state: 'closed', status: 'completed' };
    return {
      state: 'done',
      workspaceName: await this.workspaceName(workspaceId),
      connectionId: saved.connection.id,
      connectionName: saved.connection.name,
      provider: PROVIDER_DESCRIPTIONS[provider],
      feedback: { path: feedbackPath(saved.connection.id), token: saved.feedbackToken },
    };
  }

  private async usable(
    token: string,
  ): Promise<
    { state: 'usable'; session: SetupSessionRow; workspaceId: WorkspaceId; connection: DeliveryConnection | null } | { state: 'unusable'; view: SetupPageView }
  > {
    if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { state: 'unusable', view: { state: 'invalid' } };
    const session = await this.sessions.findByTokenHash(tokenDigest(token));
    if (!session) return { state: 'unusable', view: { state: 'invalid' } };
    const status = effectiveStatus(session, this.clock.now());
    if (status !== 'pending') return { state: 'unusable', view: { state: 'closed', status } };
    // The session row names its workspace; the token that found it is the authority.
    const workspaceId = trustedWorkspaceId(session.workspace_id);
    const connection = session.connection_id ? await this.connections.find(workspaceId, session.connection_id) : null;
    // A replacement whose connection was deleted meanwhile has nothing left to do.
    if (session.purpose === 'replace_credentials' && !connection) return { state: 'unusable', view: { state: 'closed', status: 'expired' } };
    return { state: 'usable', session, workspaceId, connection };
  }

  private providerOf(session: SetupSessionRow, connection: DeliveryConnection | null): DeliveryProviderName {
    const provider = connection?.provider ?? session.provider;
    if (!isDeliveryProvider(provider)) throw new Error(`setup session ${session.id} names no known provider`);
    return provider;
  }

  private async form(
    session: SetupSessionRow,
    workspaceId: WorkspaceId,
    connection: DeliveryConnection | null,
    values: Record<string, string>,
    fieldErrors: Record<string, string>,
    testFailure?: string,
  ): Promise<SetupFormView> {
    const provider = PROVIDER_DESCRIPTIONS[this.providerOf(session, connection)];
    const savedValues = connection ? savedPublicValues(connection) : {};
    return {
      state: 'form',
      workspaceName: await this.workspaceName(workspaceId),
      purpose: session.purpose === 'replace_credentials' ? 'replace_credentials' : 'create',
      provider,
      connectionName: session.name ?? connection?.name ?? provider.title,
      sender: { name: session.from_name ?? connection?.from_name ?? '', email: session.from_email ?? connection?.from_email ?? '' },
      values: { ...savedValues, ...values },
      fieldErrors,
      testFailure,
      attemptsLeft: SETUP_TEST_ATTEMPTS - session.failed_tests,
      expiresAt: session.expires_at,
    };
  }

  private async failedTest(
    session: SetupSessionRow,
    workspaceId: WorkspaceId,
    connection: DeliveryConnection | null,
    values: Record<string, string>,
    reason: DeliveryFailureReason,
  ): Promise<SetupPageView> {
    const failures = await this.sessions.countFailedTest(workspaceId, session.id);
    if (failures === null) return { state: 'closed', status: 'expired' };
    if (failures >= SETUP_TEST_ATTEMPTS) {
      await this.sessions.finish(workspaceId, session.id, { status: 'failed', failed_at: this.clock.now(), failure_code: 'setup_action_failed' });
      return { state: 'closed', status: 'failed' };
    }
    return this.form({ ...session, failed_tests: failures }, workspaceId, connection, values, {}, plainWords(reason));
  }

  /** Creates the connection (or replaces its credentials) and completes the session in one transaction; null when another submit won. */
  private async save(
    session: SetupSessionRow,
    workspaceId: WorkspaceId,
    connection: DeliveryConnection | null,
    provider: DeliveryProviderName,
    settings: EnteredSettings,
  ): Promise<{ connection: DeliveryConnection; feedbackToken: string } | null> {
    const now = this.clock.now();
    const connectionId = connection?.id ?? this.ids.newId('edc');
    const feedbackToken = this.keptFeedbackToken(connection) ?? randomBytes(24).toString('base64url');
    const sealed = this.secrets.seal(connectionId, { ...settings.secrets, feedback_token: feedbackToken });
    const provider_config = publicConfig(provider, settings) as Prisma.InputJsonObject;
    try {
      return await this.prisma.$transaction(async (tx) => {
        const saved = connection
          ? await this.connections.replaceSettings(
              workspaceId,
              connection.id,
              {
                provider_config,
                secrets: sealed,
                verified_at: now,
                ...(session.name ? { name: session.name } : {}),
                ...(session.from_email ? { from_email: session.from_email } : {}),
                ...(session.from_name ? { from_name: session.from_name } : {}),
              },
              tx,
            )
          : await this.connections.create(
              workspaceId,
              {
                id: connectionId,
                name: session.name ?? PROVIDER_DESCRIPTIONS[provider].title,
                provider,
                from_email: session.from_email ?? '',
                from_name: session.from_name ?? '',
                enabled: true,
                provider_config,
                secrets: sealed,
                verified_at: now,
              },
              tx,
            );
        // Only one submit of a link completes it: the loser's connection write is rolled back with this.
        const completed =
          saved && (await this.sessions.finish(workspaceId, session.id, { status: 'completed', completed_at: now, connection_id: connectionId }, tx));
        if (!saved || !completed) throw new SessionTaken();
        return { connection: saved, feedbackToken };
      });
    } catch (error) {
      if (error instanceof SessionTaken) return null;
      throw error;
    }
  }

  /** A credentials replacement keeps the feedback token the provider's webhook already sends, when it can be read. */
  private keptFeedbackToken(connection: DeliveryConnection | null): string | undefined {
    if (!connection?.secrets) return undefined;
    try {
      return this.secrets.open(connection.id, connection.secrets).feedback_token;
    } catch (error) {
      this.logger.warn({ connectionId: connection.id, error: (error as Error).name }, 'previous connection secrets unreadable; a new feedback token is issued');
      return undefined;
    }
  }

  private async workspaceName(workspaceId: WorkspaceId): Promise<string> {
    return (await this.workspaces.get(workspaceId)).name;
  }
}

class SessionTaken extends Error {}

function savedPublicValues(connection: DeliveryConnection): Record<string, string> {
  const saved = (connection.provider_config ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(saved)
      .filter(([key, value]) => !key.startsWith('has_') && value !== null && value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  );
}

/** The provider's refusal as a person reads it: what happened, then the provider's own words. */
export function plainWords(reason: DeliveryFailureReason): string {
  const lead: Record<string, string> = {
    authentication_failed: 'The provider did not accept these credentials.',
    connection_failed: 'We could not reach the provider with these settings.',
    connection_timeout: 'The provider did not answer in time.',
    tls_failed: 'A secure connection could not be set up: check the port and the security setting.',
  };
  return `${lead[reason.code] ?? 'The connection test did not pass.'} The provider said: ${reason.message}`;
}
