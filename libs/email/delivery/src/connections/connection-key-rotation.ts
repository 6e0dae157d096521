import { Injectable, Module } from '@nestjs/common';
import { trustedWorkspaceId } from '@shared/core';
import { secretBoxProvider, SecretUnreadable } from '@shared/secrets';
import { DeliveryConnectionRepository } from '../delivery-connection.repository';
import { ConnectionSecrets } from './connection-secrets';

export interface RewrapReport {
  examined: number;
  rewrapped: number;
  /** Connections whose secrets no configured key opens: their credentials must be entered again. */
  unreadable: string[];
}

const PAGE = 200;

/**
 * Moves every connection's sealed secrets to the active ENCRYPTION_KEY, so a retired key can be dropped from
 * ENCRYPTION_KEYS_RETIRED afterwards. Safe to run again, and alongside the services: a secret replaced meanwhile is left as it is.
 */
@Injectable()
export class ConnectionKeyRotation {
  constructor(
    private readonly connections: DeliveryConnectionRepository,
    private readonly secrets: ConnectionSecrets,
  ) {}

  async rewrapAll(): Promise<RewrapReport> {
    const report: RewrapReport = { examined: 0, rewrapped: 0, unreadable: [] };
    for (let after = ''; ;) {
      const page = await this.connections.sealedPage(after, PAGE);
      for (const row of page) {
        report.examined += 1;
        const sealed = row.secrets!;
        try {
          if (!this.secrets.needsRewrap(sealed)) continue;
          const rewrapped = this.secrets.rewrap(row.id, sealed);
          // The command walks every workspace; each row names its own.
          if (await this.connections.swapSecrets(trustedWorkspaceId(row.workspace_id), row.id, sealed, rewrapped)) report.rewrapped += 1;
        } catch (error) {
          if (!(error instanceof SecretUnreadable)) throw error;
          report.unreadable.push(row.id);
        }
      }
      if (page.length < PAGE) return report;
      after = page[page.length - 1].id;
    }
  }
}

/** Only what key rotation needs (the admin command has no Redis or HTTP). */
@Module({ providers: [secretBoxProvider, DeliveryConnectionRepository, ConnectionSecrets, ConnectionKeyRotation], exports: [ConnectionKeyRotation] })
export class ConnectionKeyRotationModule {}
