import { Injectable, Module } from '@nestjs/common';
import { EmailPrisma } from '@email/data-access';
import { secretBoxProvider, SecretUnreadable } from '@shared/secrets';
import { SubscriptionSecrets } from './subscription-secrets';

export interface SigningSecretRewrapReport {
  examined: number;
  rewrapped: number;
  /** Subscriptions whose signing secret no configured key opens: rotate their secret. */
  unreadable: string[];
}

const PAGE = 200;

/**
 * Moves every subscription's sealed signing secret to the active ENCRYPTION_KEY (admin-cli rewrap-secrets), so a
 * retired key can be dropped afterwards. A secret rotated meanwhile is left as it is. Walks every workspace.
 */
@Injectable()
export class SigningSecretKeyRotation {
  constructor(
    private readonly prisma: EmailPrisma,
    private readonly secrets: SubscriptionSecrets,
  ) {}

  async rewrapAll(): Promise<SigningSecretRewrapReport> {
    const report: SigningSecretRewrapReport = { examined: 0, rewrapped: 0, unreadable: [] };
    for (let after = ''; ;) {
      const page = await this.prisma.webhookSubscription.findMany({
        where: { id: { gt: after } },
        orderBy: { id: 'asc' },
        take: PAGE,
        select: { id: true, signing_secret: true },
      });
      for (const row of page) {
        report.examined += 1;
        try {
          if (!this.secrets.needsRewrap(row.signing_secret)) continue;
          const rewrapped = this.secrets.rewrap(row.id, row.signing_secret);
          const { count } = await this.prisma.webhookSubscription.updateMany({
            where: { id: row.id, signing_secret: row.signing_secret },
            data: { signing_secret: rewrapped },
          });
          report.rewrapped += count;
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
@Module({ providers: [secretBoxProvider, SubscriptionSecrets, SigningSecretKeyRotation], exports: [SigningSecretKeyRotation] })
export class SigningSecretKeyRotationModule {}
