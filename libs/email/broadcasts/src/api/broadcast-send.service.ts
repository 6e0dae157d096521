import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { BroadcastRun } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { SubscriberService } from '@email/audience';
import { ConnectionProviders, DeliveryConnectionRepository, sendFailure, sendLimitsOf, TEST_SEND_WINDOW_MS, TEST_SENDS_PER_WINDOW } from '@email/delivery';
import { Outbox } from '@email/events';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, WorkspaceId } from '@shared/core';
import { DomainError, TooManyRequests } from '@shared/errors';
import { parseLimit } from '@shared/pagination';
import { countInWindow, retryAfterSeconds } from '@shared/rate-limit';
import { REDIS_CLIENT } from '@shared/redis';
import { BroadcastMessages } from '../core/broadcast-messages';
import { BroadcastMessageSources } from '../core/broadcast-messages.repository';
import { BroadcastRunStarter } from '../core/broadcast-run-starter';
import { ConnectionLimiter } from '../core/connection-limiter';
import { BlockingIssue, BroadcastPreflightChecks, isSendable, notSendable, PreflightWarning } from '../core/preflight';
import { audienceHash, SendProofs } from '../core/preflight-proof';
import { isTerminalPhase, RunPhase } from '../core/run-states';
import { BroadcastCancelResultDto, BroadcastSendResultDto, BroadcastTestResultDto } from './broadcast.dto';
import { BroadcastDeliveryErrorPageDto, BroadcastSendPreflightDto, BroadcastSendProgressDto } from './broadcast-send.dto';
import { recordStateChange } from './broadcast-events';
import { DailyQuota, estimatedSendSeconds, progressOf } from './broadcast-progress';
import { BroadcastRepository } from './broadcast.repository';
import { BroadcastService } from './broadcast.service';

/** A send refused by its checks: the first issue's code, every issue in `blocking_issues`. */
const blocked = (issues: BlockingIssue[]): DomainError =>
  EmailErrors.fail(issues[0].code, `${issues[0].message} ${issues[0].resolution}`, { extra: { blocking_issues: issues } });

const CURSOR = /^\d{1,18}$/;

/** The send side of the API: preflight, send, progress, delivery errors, cancel and test sends. */
@Injectable()
export class BroadcastSendService {
  private readonly proofs: SendProofs;

  constructor(
    private readonly broadcasts: BroadcastService,
    private readonly repository: BroadcastRepository,
    private readonly checks: BroadcastPreflightChecks,
    private readonly starter: BroadcastRunStarter,
    private readonly connections: DeliveryConnectionRepository,
    private readonly providers: ConnectionProviders,
    private readonly messages: BroadcastMessages,
    private readonly messageSources: BroadcastMessageSources,
    private readonly subscribers: SubscriberService,
    private readonly outbox: Outbox,
    private readonly limiter: ConnectionLimiter,
    private readonly clock: Clock,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.proofs = new SendProofs(config.cursorSecret);
  }

  /** The readiness report; on no blocking issue, a short-lived proof that lets the send skip the checks. */
  async preflight(workspaceId: WorkspaceId, id: string): Promise<{ report: BroadcastSendPreflightDto; warnings: PreflightWarning[] }> {
    const broadcast = await this.broadcasts.find(workspaceId, id);
    const report = await this.checks.check(workspaceId, broadcast);
    const proof = report.issues.length
      ? null
      : this.proofs.issue(
          {
            workspaceId,
            broadcastId: id,
            contentVersion: broadcast.content_version,
            audienceHash: audienceHash(broadcast.audience_definition),
            connectionId: broadcast.connection_id!,
            recipients: report.recipientCount,
          },
          report.checkedAt,
        );
    const connection = report.connection;
    // What the send worker holds this connection to (its settings, else its provider's defaults).
    const limits = connection ? sendLimitsOf(connection) : null;
    const quota = connection && limits?.dailyQuota ? await this.dailyQuota(connection.id, limits.dailyQuota) : null;
    return {
      report: {
        workspace_id: workspaceId,
        broadcast_id: id,
        subject: broadcast.subject,
        recipient_estimate: report.recipientCount,
        connection: { id: connection?.id ?? broadcast.connection_id ?? '', name: connection?.name ?? '', provider: connection?.provider ?? '' },
        provider_production_status: report.providerProductionStatus,
        remaining_daily_quota: quota?.remaining ?? null,
        sending_quota: quota,
        safe_send_rate: limits?.ratePerSecond ?? null,
        estimated_duration_seconds: limits ? estimatedSendSeconds(report.recipientCount, limits.ratePerSecond, quota, report.checkedAt) : null,
        sender_authentication_status: report.senderAuthenticationStatus,
        event_webhook_health: report.eventWebhookHealth,
        blocking_issues: report.issues,
        checked_at: report.checkedAt.toISOString(),
        send_proof: proof?.proof ?? null,
        send_proof_expires_at: proof?.expiresAt.toISOString() ?? null,
      },
      warnings: report.warnings,
    };
  }

  /**
   * Starts the send. A proof from a preflight of an earlier version (content, audience definition or connection changed
   * since) is a 409: run the preflight again. A fresh proof skips the checks; an expired one, none, or one that is not
   * this broadcast's (another broadcast's or workspace's, or not ours at all) runs them here, as the contract reads.
   */
  async send(workspaceId: WorkspaceId, id: string, preflightProof?: string): Promise<BroadcastSendResultDto> {
    const broadcast = await this.broadcasts.find(workspaceId, id);
    if (!isSendable(broadcast)) throw blocked([notSendable(broadcast)]);
    let recipients: number | null = null;
    if (preflightProof !== undefined) {
      const now = {
        contentVersion: broadcast.content_version,
        audienceHash: audienceHash(broadcast.audience_definition),
        connectionId: broadcast.connection_id ?? '',
      };
      const read = this.proofs.read(preflightProof, workspaceId, id, now, this.clock.now());
      if (read.kind === 'stale') {
        throw EmailErrors.fail(
          'broadcast_changed_since_preflight',
          'The broadcast changed since the preflight that issued this proof (content, audience definition or connection). Run the preflight again and send with its new send_proof.',
        );
      }
      if (read.kind === 'valid') recipients = read.claims.recipients;
    }
    if (recipients === null) {
      const report = await this.checks.check(workspaceId, broadcast);
      if (report.issues.length) throw blocked(report.issues);
      recipients = report.recipientCount;
    }
    const started = await this.starter.start(
      workspaceId,
      { broadcastId: id, contentVersion: broadcast.content_version, connectionId: broadcast.connection_id!, selected: recipients },
      (tx, run) => recordStateChange(this.outbox, tx, workspaceId, 'send_started', { id, status: 'running', scheduled_at: null }, run),
    );
    const now = await this.broadcasts.find(workspaceId, id);
    if (!started) {
      if (!isSendable(now)) throw blocked([notSendable(now)]);
      throw EmailErrors.fail(
        'broadcast_changed_since_preflight',
        'The broadcast changed while the send was being started; run the preflight again, then send.',
      );
    }
    return { status: 'running', run_id: started.run.id, resource: await this.broadcasts.present(workspaceId, now) };
  }

  async progress(workspaceId: WorkspaceId, id: string): Promise<BroadcastSendProgressDto> {
    await this.broadcasts.find(workspaceId, id);
    const run = await this.latestRun(workspaceId, id);
    const connection = await this.connections.find(workspaceId, run.connection_id);
    return progressOf(run, connection && { provider: connection.provider, rate: sendLimitsOf(connection).ratePerSecond }, this.clock.now());
  }

  /** Today's share of the connection's daily quota; null when the limiter cannot be read (reported as unknown). */
  private async dailyQuota(connectionId: string, limit: number): Promise<DailyQuota | null> {
    try {
      return { remaining: Math.max(0, limit - (await this.limiter.usedToday(connectionId))), limit, period: 'day' };
    } catch {
      return null;
    }
  }

  /** Failed and unknown deliveries of the latest send, by id after `cursor` (the last id seen). */
  async deliveryErrors(workspaceId: WorkspaceId, id: string, query: { cursor?: string; limit?: string }): Promise<BroadcastDeliveryErrorPageDto> {
    const limit = parseLimit(query.limit);
    if (query.cursor !== undefined && !CURSOR.test(query.cursor)) {
      throw EmailErrors.invalid('invalid_cursor', '"cursor" must be the integer next_cursor of the previous page.', 'cursor');
    }
    await this.broadcasts.find(workspaceId, id);
    const run = await this.repository.latestRun(workspaceId, id);
    if (!run) return { items: [], next_cursor: null };
    const rows = await this.repository.deliveryErrors(workspaceId, run.id, BigInt(query.cursor ?? 0), limit);
    const items = rows.slice(0, limit).map((row) => ({
      id: Number(row.id),
      subscriber_id: row.subscriber_id,
      outcome: row.state,
      attempt_count: row.attempt_count,
      error_code: row.error_code,
      updated_at: row.updated_at.toISOString(),
    }));
    return { items, next_cursor: rows.length > limit ? items[items.length - 1].id : null };
  }

  /**
   * Asks the latest send to stop: `preparing` | `sending` | `paused` → `canceling`, from the phase read (a move by the
   * send worker in between is a 409 concurrent update). The send worker then cancels the untried deliveries and ends
   * the run `canceled`. Repeating it while canceling or once canceled changes nothing.
   */
  async cancel(workspaceId: WorkspaceId, id: string): Promise<BroadcastCancelResultDto> {
    const broadcast = await this.broadcasts.find(workspaceId, id);
    const run = await this.latestRun(workspaceId, id);
    const phase = run.phase as RunPhase;
    if (phase === 'canceling' || phase === 'canceled') {
      return { status: phase, run_id: run.id, changed: false, recovery_pending: false, message: `The send is already ${phase}.` };
    }
    if (isTerminalPhase(phase)) {
      throw EmailErrors.fail('broadcast_cancel_already_finished', `The send already finished (${phase}); nothing is left to cancel.`);
    }
    if (phase !== 'preparing' && !(await this.repository.hasUntriedDeliveries(workspaceId, run.id))) {
      throw EmailErrors.fail(
        'broadcast_cancel_finalization_started',
        'Every message of the send was already handed to the provider; the send is finishing and cannot be canceled.',
      );
    }
    const changed = await this.repository.transaction(async (tx) => {
      if (!(await this.repository.requestCancel(tx, workspaceId, run.id, phase))) return false;
      await recordStateChange(this.outbox, tx, workspaceId, 'cancel_requested', broadcast, { id: run.id, phase: 'canceling' });
      return true;
    });
    if (!changed) {
      throw EmailErrors.fail(
        'broadcast_cancel_concurrent_update',
        'The send changed while the cancel was being saved; read the progress, then cancel again if it is still running.',
      );
    }
    const paused = phase === 'paused';
    return {
      status: 'canceling',
      run_id: run.id,
      changed: true,
      recovery_pending: paused,
      message: paused
        ? 'Cancel saved. The send was paused: the send worker cancels the remaining messages at its next recovery pass. Messages the provider accepted cannot be recalled.'
        : 'Canceling: messages not yet handed to the provider will not be sent. Messages the provider accepted cannot be recalled.',
    };
  }

  /**
   * One real email to `recipient`, built as the send builds them with the named subscriber's data, marked as a test
   * and untracked, through the broadcast's connection; counted against a small per-broadcast window.
   */
  async test(workspaceId: WorkspaceId, id: string, recipient: string, subscriberId: string): Promise<BroadcastTestResultDto> {
    const broadcast = await this.broadcasts.find(workspaceId, id);
    const connection = broadcast.connection_id ? await this.connections.find(workspaceId, broadcast.connection_id) : null;
    if (!connection?.enabled) {
      throw EmailErrors.fail(
        'broadcast_connection_unavailable',
        connection ? `The connection "${connection.name}" is disabled.` : 'The broadcast has no email delivery connection; set connection_id first.',
      );
    }
    const subscriber = await this.subscribers.get(workspaceId, subscriberId).catch((error: unknown) => {
      if (error instanceof DomainError && error.code === 'subscriber_not_found') {
        throw EmailErrors.invalid('unknown_subscriber', `subscriber_id "${subscriberId}" is not a subscriber of this workspace.`, 'subscriber_id');
      }
      throw error;
    });
    const provider = this.providers.forConnection(connection);
    const { used, resetMs } = await countInWindow(this.redis, `broadcast-test:${workspaceId}:${id}`, TEST_SEND_WINDOW_MS, this.clock.now().getTime());
    if (used > TEST_SENDS_PER_WINDOW) throw TooManyRequests(retryAfterSeconds(resetMs));
    const context = await this.messageSources.contextOf(workspaceId);
    if (!context) throw EmailErrors.notFound('workspace', workspaceId);
    const prepared = await this.messages.prepare({ ...context, broadcast, sender: { email: connection.from_email, name: connection.from_name }, test: true });
    const message = prepared.messageFor({ subscriberId, email: subscriber.email, name: subscriber.name, customFields: subscriber.custom_fields });
    const outcome = await provider.send({ ...message, to: recipient });
    if (outcome.kind !== 'accepted') throw sendFailure(outcome);
    return { status: 'completed', subscriber_id: subscriberId };
  }

  /** The broadcast's latest run; call after finding the broadcast (a 404 for it comes first). */
  private async latestRun(workspaceId: WorkspaceId, id: string): Promise<BroadcastRun> {
    const run = await this.repository.latestRun(workspaceId, id);
    if (!run)
      throw EmailErrors.fail('broadcast_send_not_found', 'The broadcast has not been sent, so it has no send.', {
        details: { resource: { type: 'broadcast', id } },
      });
    return run;
  }
}
