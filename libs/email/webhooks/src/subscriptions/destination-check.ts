import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { checkWebhookUrl, DestinationRefused, DestinationRules, HostResolver, resolveDestination, systemResolver, withTimeout } from '@shared/webhooks';
import { EmailErrors } from '@email/contracts';

/** Injection token for the resolver create and update use (tests answer with their own addresses). */
export const WEBHOOK_HOST_RESOLVER = Symbol('WEBHOOK_HOST_RESOLVER');

const RESOLVE_TIMEOUT_MS = 2000;

/**
 * The create/update check of a destination: the URL rules, then the host's current addresses. A host that does not
 * resolve now (or not within two seconds) is accepted, as it may be set up later: webhook-worker checks the addresses
 * again before every attempt.
 */
@Injectable()
export class WebhookDestinationCheck {
  private readonly rules: DestinationRules;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(WEBHOOK_HOST_RESOLVER) private readonly resolve: HostResolver,
  ) {
    this.rules = { allowLoopback: config.webhooks.allowLoopback };
  }

  async check(raw: string): Promise<string> {
    try {
      const url = checkWebhookUrl(raw, this.rules);
      await resolveDestination(url, this.rules, (host) => withTimeout(this.resolve(host), RESOLVE_TIMEOUT_MS, 'resolving the host')).catch((error: unknown) => {
        if (error instanceof DestinationRefused && !/has no address/.test(error.message)) throw error;
      });
      return raw;
    } catch (error) {
      if (error instanceof DestinationRefused) throw EmailErrors.invalid('invalid_webhook_url', error.message, 'url');
      throw error;
    }
  }
}

export const systemHostResolverProvider = { provide: WEBHOOK_HOST_RESOLVER, useValue: systemResolver };
