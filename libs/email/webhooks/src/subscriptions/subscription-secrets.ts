import { Injectable } from '@nestjs/common';
import { SecretBox } from '@shared/secrets';

const context = (subscriptionId: string) => `webhook_subscription:${subscriptionId}:signing_secret`;

/** Seals a subscription's signing secret bound to its id, so a sealed secret copied onto another subscription does not open. */
@Injectable()
export class SubscriptionSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(subscriptionId: string, secret: string): string {
    return this.box.seal(secret, context(subscriptionId));
  }

  open(subscriptionId: string, sealed: string): string {
    return this.box.open(sealed, context(subscriptionId));
  }

  needsRewrap(sealed: string): boolean {
    return this.box.needsRewrap(sealed);
  }

  rewrap(subscriptionId: string, sealed: string): string {
    return this.box.rewrap(sealed, context(subscriptionId));
  }
}
