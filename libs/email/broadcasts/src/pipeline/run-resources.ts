import { Inject, Injectable, Logger } from '@nestjs/common';
import { DeliveryConnection, EmailPrisma } from '@email/data-access';
import {
  ConnectionSecrets,
  createDeliveryProvider,
  DeliveryOutcome,
  DeliveryProvider,
  deliveryProviderOptions,
  OutgoingMessage,
  SendLimits,
  sendLimitsOf,
} from '@email/delivery';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { BroadcastMessages, PreparedBroadcast } from '../core/broadcast-messages';
import { BroadcastMessageSources } from '../core/broadcast-messages.repository';
import type { RunStop } from './run-store';

/** What a run is sent with, as the worker's caches hold it. */
export interface RunIdentity {
  id: string;
  workspace_id: string;
  broadcast_id: string;
  connection_id: string;
}

/** A connection ready to send: its provider, at most `limits.connections` sends at once in this process. */
export class ConnectionHandle {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly provider: DeliveryProvider,
    readonly limits: SendLimits,
    readonly sender: { email: string; name: string },
  ) {}

  async send(message: OutgoingMessage): Promise<DeliveryOutcome> {
    while (this.active >= this.limits.connections) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await this.provider.send(message);
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  close(): void {
    (this.provider as DeliveryProvider & { close?: () => void }).close?.();
  }
}

/**
 * The send worker's per-process caches: each connection's provider (pooled, rebuilt when the connection changes,
 * checked again every poll interval) and each run's prepared broadcast (compiled once). A connection that cannot send
 * is a RunStop (the run fails with it).
 */
@Injectable()
export class RunResources {
  private readonly logger = new Logger(RunResources.name);
  private readonly connections = new Map<string, { checkedAt: number; stamp: number; handle: ConnectionHandle | RunStop }>();
  /** One check per connection at a time: lanes asking together share it (else each would open a pool of its own). */
  private readonly checking = new Map<string, Promise<ConnectionHandle | RunStop>>();
  private readonly broadcasts = new Map<string, Promise<PreparedBroadcast>>();

  constructor(
    private readonly prisma: EmailPrisma,
    private readonly secrets: ConnectionSecrets,
    private readonly messages: BroadcastMessages,
    private readonly sources: BroadcastMessageSources,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The run's connection, ready to send, or why it cannot. */
  async connection(run: RunIdentity): Promise<ConnectionHandle | RunStop> {
    const cached = this.connections.get(run.connection_id);
    if (cached && Date.now() - cached.checkedAt < this.config.broadcastSend.pollIntervalMs) return cached.handle;
    let check = this.checking.get(run.connection_id);
    if (!check) {
      check = this.check(run).finally(() => this.checking.delete(run.connection_id));
      this.checking.set(run.connection_id, check);
    }
    return check;
  }

  private async check(run: RunIdentity): Promise<ConnectionHandle | RunStop> {
    const cached = this.connections.get(run.connection_id);
    const row = await this.prisma.deliveryConnection.findFirst({ where: { id: run.connection_id, workspace_id: run.workspace_id } });
    const stamp = row?.updated_at.getTime() ?? 0;
    if (cached && cached.stamp === stamp) {
      cached.checkedAt = Date.now();
      return cached.handle;
    }
    if (cached?.handle instanceof ConnectionHandle) cached.handle.close();
    const handle = this.open(row);
    this.connections.set(run.connection_id, { checkedAt: Date.now(), stamp, handle });
    return handle;
  }

  /** The run's broadcast compiled with its sender, footer and tokens (once per run in this process). */
  prepared(run: RunIdentity, sender: { email: string; name: string }): Promise<PreparedBroadcast> {
    let prepared = this.broadcasts.get(run.id);
    if (!prepared) {
      prepared = this.prepare(run, sender);
      this.broadcasts.set(run.id, prepared);
      prepared.catch(() => this.broadcasts.delete(run.id));
    }
    return prepared;
  }

  /** Drops what belongs to runs no longer active here. */
  retain(activeRunIds: ReadonlySet<string>): void {
    for (const id of this.broadcasts.keys()) if (!activeRunIds.has(id)) this.broadcasts.delete(id);
  }

  closeAll(): void {
    for (const { handle } of this.connections.values()) if (handle instanceof ConnectionHandle) handle.close();
    this.connections.clear();
  }

  private open(connection: DeliveryConnection | null): ConnectionHandle | RunStop {
    if (!connection) return { reason: 'connection_missing', message: "The broadcast's delivery connection no longer exists." };
    if (!connection.enabled) return { reason: 'connection_disabled', message: `The delivery connection "${connection.name}" is disabled.` };
    const limits = sendLimitsOf(connection);
    try {
      const config = Object.fromEntries(
        Object.entries((connection.provider_config ?? {}) as Record<string, unknown>).filter(([key]) => !key.startsWith('has_')),
      );
      const provider = createDeliveryProvider(
        connection.provider,
        { config, secrets: this.secrets.open(connection.id, connection.secrets) },
        { ...deliveryProviderOptions(this.config), smtpPoolSize: limits.connections },
      );
      return new ConnectionHandle(provider, limits, { email: connection.from_email, name: connection.from_name });
    } catch (error) {
      // Never the secrets: the factory's and SecretBox's messages name the setting or say the key is unknown.
      this.logger.warn({ connectionId: connection.id, error: (error as Error).message }, 'delivery connection unusable');
      return { reason: 'connection_unusable', message: `The delivery connection "${connection.name}" cannot be used: ${(error as Error).message}` };
    }
  }

  private async prepare(run: RunIdentity, sender: { email: string; name: string }): Promise<PreparedBroadcast> {
    const workspaceId = trustedWorkspaceId(run.workspace_id);
    const [broadcast, context] = await Promise.all([
      this.prisma.broadcast.findFirstOrThrow({ where: { id: run.broadcast_id, workspace_id: workspaceId } }),
      this.sources.contextOf(workspaceId),
    ]);
    if (!context) throw new Error(`workspace ${workspaceId} is gone`);
    return this.messages.prepare({ ...context, broadcast, sender, runId: run.id });
  }
}
