import { Injectable } from '@nestjs/common';
import type { Broadcast, DeliveryConnection } from '@email/data-access';
import { ConnectionProviders, ConnectionSecrets, DeliveryConnectionRepository, DeliveryProvider, VerifyResult } from '@email/delivery';
import type { AudienceDefinition } from '@email/audience-engine';
import { Clock, WorkspaceId } from '@shared/core';
import { DomainError } from '@shared/errors';
import { SecretUnreadable } from '@shared/secrets';
import { BroadcastMessages } from './broadcast-messages';
import { BroadcastMessageSources } from './broadcast-messages.repository';
import { BroadcastRecipients } from './broadcast-recipients';
import { GMAIL_CLIP_BYTES, malformedUrls, missingUnsubscribeParts } from './preflight-content';
import { PreflightSources } from './preflight.repository';
import { SENDABLE_STATUSES } from './run-states';

/** The blocking issues a preflight (and a send without a fresh proof) can find: spec §7 rule 4's, then our content checks. */
export const BLOCKING_ISSUE_CODES = [
  'broadcast_not_sendable',
  'broadcast_connection_unavailable',
  'broadcast_provider_quota_unavailable',
  'broadcast_connection_unhealthy',
  'broadcast_provider_production_access_required',
  'broadcast_sender_unverified',
  'broadcast_audience_invalid',
  'broadcast_no_recipients',
  'broadcast_content_invalid',
] as const;
export type BlockingIssueCode = (typeof BLOCKING_ISSUE_CODES)[number];

export interface BlockingIssue {
  code: BlockingIssueCode;
  message: string;
  resolution: string;
}

/** Worth knowing, not worth refusing the send for. Not in the preflight body (its schema is the contract's); see BroadcastSendService. */
export interface PreflightWarning {
  code: 'message_may_be_clipped' | 'postal_address_missing';
  message: string;
}

export type ProductionStatus = 'production' | 'restricted' | 'unknown';
export type SenderStatus = 'verified' | 'unverified' | 'unknown';

export interface PreflightReport {
  checkedAt: Date;
  /** Active subscribers matching the audience now (0 when the audience does not compile). */
  recipientCount: number;
  connection: DeliveryConnection | null;
  providerProductionStatus: ProductionStatus;
  senderAuthenticationStatus: SenderStatus;
  eventWebhookHealth: 'healthy' | 'unknown';
  issues: BlockingIssue[];
  warnings: PreflightWarning[];
}

/** How long the provider check may take before the provider counts as unreachable. */
export const PREFLIGHT_VERIFY_TIMEOUT_MS = 5000;
/** A provider event received this recently shows its bounce and complaint webhook reaches us. */
const WEBHOOK_HEALTHY_WITHIN_MS = 30 * 86_400_000;

const RESOLUTIONS: Record<BlockingIssueCode, string> = {
  broadcast_not_sendable: 'Read the broadcast and its send progress; create a new broadcast to send this content again.',
  broadcast_connection_unavailable:
    'Set connection_id to an enabled email delivery connection of the workspace (update the draft), or enable the connection, or replace its credentials through a setup session.',
  broadcast_provider_quota_unavailable: "Replace the connection's credentials through a setup session, so they are sealed under this server's current key.",
  broadcast_connection_unhealthy:
    'Verify the connection (POST /v1/email-delivery-connections/{id}/verify); if the provider refuses the credentials, replace them through a setup session, else retry when it is reachable.',
  broadcast_provider_production_access_required: 'Ask the provider to enable sending (production access) for the account, then run the preflight again.',
  broadcast_sender_unverified: "Verify the sending domain or address in the provider's dashboard, then run the preflight again.",
  broadcast_audience_invalid: 'Update the draft with an audience_definition that names existing custom fields, tags and segments.',
  broadcast_no_recipients: 'Change the audience_definition, or add or reactivate subscribers, until the preflight counts at least one recipient.',
  broadcast_content_invalid: 'Fix the URLs the message names in body_document (update the draft), then run the preflight again.',
};

export const blockingIssue = (code: BlockingIssueCode, message: string): BlockingIssue => ({ code, message, resolution: RESOLUTIONS[code] });
const issue = blockingIssue;

export const isSendable = (broadcast: Pick<Broadcast, 'status'>): boolean => (SENDABLE_STATUSES as readonly string[]).includes(broadcast.status);

export const notSendable = (broadcast: Pick<Broadcast, 'status'>): BlockingIssue =>
  issue('broadcast_not_sendable', `The broadcast is ${broadcast.status}; only a draft or scheduled broadcast can be sent.`);

/** Provider refusals that mean the sender (its domain) is not verified, and those that mean the account may not send broadly yet. */
const SENDER_REFUSALS = new Set(['domain_not_active', 'domain_not_found']);
const PRODUCTION_REFUSALS = new Set(['sending_paused']);
/** Providers whose check covers the sending domain, so passing it means the sender is verified. */
const SENDER_CHECKED_BY_VERIFY = new Set(['mailgun']);

interface ConnectionCheck {
  connection: DeliveryConnection | null;
  issues: BlockingIssue[];
  production: ProductionStatus;
  sender: SenderStatus;
}

/** A provider check that gives up after `ms`: a hung provider is an unreachable one. */
async function verifyWithin(provider: DeliveryProvider, ms: number): Promise<VerifyResult | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([provider.verify(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const isClientError = (error: unknown): error is DomainError => error instanceof DomainError && error.status < 500;

/**
 * The blocking checks of a send, shared by the preflight, a send without a fresh proof and the scheduler: the
 * broadcast's state, its connection (present, enabled, credentials readable, the provider answering its check), the
 * exact recipient count through BroadcastRecipients (the send's own rule), and the built message (well-formed URLs,
 * the unsubscribe link and headers present; its size against Gmail's clipping, a warning).
 */
@Injectable()
export class BroadcastPreflightChecks {
  constructor(
    private readonly recipients: BroadcastRecipients,
    private readonly connections: DeliveryConnectionRepository,
    private readonly secrets: ConnectionSecrets,
    private readonly providers: ConnectionProviders,
    private readonly messages: BroadcastMessages,
    private readonly messageSources: BroadcastMessageSources,
    private readonly sources: PreflightSources,
    private readonly clock: Clock,
  ) {}

  async check(workspaceId: WorkspaceId, broadcast: Broadcast, verifyTimeoutMs = PREFLIGHT_VERIFY_TIMEOUT_MS): Promise<PreflightReport> {
    const checkedAt = this.clock.now();
    const connection = broadcast.connection_id ? await this.connections.find(workspaceId, broadcast.connection_id) : null;
    const [connectionCheck, audience, content, webhookHealthy] = await Promise.all([
      this.checkConnection(broadcast, connection, verifyTimeoutMs),
      this.checkAudience(workspaceId, broadcast),
      this.checkContent(workspaceId, broadcast, connection),
      connection ? this.sources.feedbackSince(workspaceId, connection.id, new Date(checkedAt.getTime() - WEBHOOK_HEALTHY_WITHIN_MS)) : false,
    ]);
    const state = isSendable(broadcast) ? [] : [notSendable(broadcast)];
    return {
      checkedAt,
      recipientCount: audience.count,
      connection,
      providerProductionStatus: connectionCheck.production,
      senderAuthenticationStatus: connectionCheck.sender,
      eventWebhookHealth: webhookHealthy ? 'healthy' : 'unknown',
      issues: [...state, ...connectionCheck.issues, ...audience.issues, ...content.issues],
      warnings: content.warnings,
    };
  }

  private async checkConnection(broadcast: Broadcast, connection: DeliveryConnection | null, timeoutMs: number): Promise<ConnectionCheck> {
    const unknown = { connection, production: 'unknown', sender: 'unknown' } as const;
    const unavailable = (why: string): ConnectionCheck => ({ ...unknown, issues: [issue('broadcast_connection_unavailable', why)] });
    if (!broadcast.connection_id) return unavailable('The broadcast has no email delivery connection (connection_id is null).');
    if (!connection) return unavailable(`The email delivery connection ${broadcast.connection_id} no longer exists.`);
    const name = `The connection "${connection.name}"`;
    if (!connection.enabled) return unavailable(`${name} is disabled.`);
    if (!connection.secrets) return unavailable(`${name} has no saved credentials.`);
    try {
      this.secrets.open(connection.id, connection.secrets);
    } catch (error) {
      if (!(error instanceof SecretUnreadable)) throw error;
      const message = `${name}'s saved credentials cannot be opened with this server's encryption keys, so its provider and quota cannot be checked.`;
      return { ...unknown, issues: [issue('broadcast_provider_quota_unavailable', message)] };
    }
    let provider: DeliveryProvider;
    try {
      provider = this.providers.forConnection(connection);
    } catch (error) {
      if (isClientError(error)) return unavailable(error.message);
      throw error;
    }
    const result = await verifyWithin(provider, timeoutMs);
    if (result === 'timeout') {
      return { ...unknown, issues: [issue('broadcast_connection_unhealthy', `${name}'s provider did not answer its check within ${timeoutMs / 1000} s.`)] };
    }
    if (result.ok) {
      return {
        connection,
        issues: [],
        // An SMTP server has no sandbox; the hosted providers' checks do not say whether the account is out of one.
        production: connection.provider === 'custom-smtp' ? 'production' : 'unknown',
        sender: SENDER_CHECKED_BY_VERIFY.has(connection.provider) ? 'verified' : 'unknown',
      };
    }
    const { code, message } = result.reason;
    if (result.kind === 'permanent' && SENDER_REFUSALS.has(code)) {
      return { connection, production: 'unknown', sender: 'unverified', issues: [issue('broadcast_sender_unverified', `${name}: ${message}.`)] };
    }
    if (result.kind === 'permanent' && PRODUCTION_REFUSALS.has(code)) {
      return {
        connection,
        production: 'restricted',
        sender: 'unknown',
        issues: [issue('broadcast_provider_production_access_required', `${name}: ${message}.`)],
      };
    }
    const why = result.kind === 'transient' ? 'could not be reached' : 'refused the connection';
    return { ...unknown, issues: [issue('broadcast_connection_unhealthy', `${name}'s provider ${why}: ${message} (${code}).`)] };
  }

  private async checkAudience(workspaceId: WorkspaceId, broadcast: Broadcast): Promise<{ count: number; issues: BlockingIssue[] }> {
    let count: number;
    try {
      count = await this.recipients.count(await this.recipients.compile(workspaceId, broadcast.audience_definition as AudienceDefinition | null));
    } catch (error) {
      if (isClientError(error))
        return { count: 0, issues: [issue('broadcast_audience_invalid', `The audience definition no longer compiles: ${error.message}`)] };
      throw error;
    }
    return { count, issues: count ? [] : [issue('broadcast_no_recipients', 'No Active subscriber matches the audience definition.')] };
  }

  /** Builds the message for a stand-in recipient, as the send will build each one. */
  private async checkContent(
    workspaceId: WorkspaceId,
    broadcast: Broadcast,
    connection: DeliveryConnection | null,
  ): Promise<{ issues: BlockingIssue[]; warnings: PreflightWarning[] }> {
    const issues = malformedUrls(broadcast.body_document).map(({ path, url }) =>
      issue('broadcast_content_invalid', `${path} is not a well-formed URL: ${JSON.stringify(url.slice(0, 200))}.`),
    );
    const context = await this.messageSources.contextOf(workspaceId);
    if (!context) return { issues, warnings: [] };
    const prepared = await this.messages.prepare({
      ...context,
      broadcast,
      sender: connection ? { email: connection.from_email, name: connection.from_name } : { email: 'sender@example.invalid', name: '' },
      runId: 'brun_preflight',
    });
    const message = prepared.messageFor({ subscriberId: 'sub_preflight', email: 'recipient@example.invalid', name: 'Recipient' });
    const unsubscribeUrl = /^<(.*)>$/.exec(message.headers['List-Unsubscribe'] ?? '')?.[1] ?? '';
    const missing = missingUnsubscribeParts(message, unsubscribeUrl || 'missing');
    if (missing.length) issues.push(issue('broadcast_content_invalid', `The message would lack ${missing.join(', ')}.`));
    const bytes = Buffer.byteLength(message.html);
    const warnings: PreflightWarning[] = [];
    if (bytes > GMAIL_CLIP_BYTES) {
      warnings.push({
        code: 'message_may_be_clipped',
        message: `The HTML part is ${Math.ceil(bytes / 1024)} KB; Gmail clips messages past about 102 KB, hiding the rest and the footer.`,
      });
    }
    if (!context.workspace.address) {
      warnings.push({
        code: 'postal_address_missing',
        message: "The footer has no postal address: laws such as CAN-SPAM require one in marketing email. Add it to the workspace's address.",
      });
    }
    return { issues, warnings };
  }
}
