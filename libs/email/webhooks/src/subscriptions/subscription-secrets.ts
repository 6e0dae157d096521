import { Injectable } from '@nestjs/common';
import { SecretBox } from '@shared/secrets';
import { SigningSecrets } from '@shared/webhooks';

/** A subscription's sealed signing secret, bound to its id. */
@Injectable()
export class SubscriptionSecrets extends SigningSecrets {
  constructor(box: SecretBox) {
    super(box, 'webhook_subscription');
  }
}
