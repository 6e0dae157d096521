import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { checkNewDestination, DestinationRefused, DestinationRules, destinationRules, HostResolver, WEBHOOK_HOST_RESOLVER } from '@shared/webhooks';
import { EmailErrors } from '@email/contracts';

/** A subscription's destination at create and update: refused as 400 `invalid_webhook_url` naming `url`. */
@Injectable()
export class WebhookDestinationCheck {
  private readonly rules: DestinationRules;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(WEBHOOK_HOST_RESOLVER) private readonly resolve: HostResolver,
  ) {
    this.rules = destinationRules(config);
  }

  async check(raw: string): Promise<string> {
    try {
      await checkNewDestination(raw, this.rules, this.resolve);
      return raw;
    } catch (error) {
      if (error instanceof DestinationRefused) throw EmailErrors.invalid('invalid_webhook_url', error.message, 'url');
      throw error;
    }
  }
}
