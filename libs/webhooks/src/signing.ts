import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The Standard Webhooks headers one delivery attempt carries. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** A new signing secret: `whsec_` and 32 random bytes in base64, the form Standard Webhooks receivers expect. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** What a subscription shows of its secret after creation: the prefix and the last four characters. */
export function signingSecretPreview(secret: string): string {
  return `whsec_…${secret.slice(-4)}`;
}

/**
 * Signs one attempt: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` (the reference `standardwebhooks` package
 * does it, so receivers verifying with it agree by construction). The id stays the same across retries; the
 * timestamp is the attempt's.
 */
export class WebhookSigner {
  private readonly webhook: Webhook;

  constructor(secret: string) {
    this.webhook = new Webhook(secret);
  }

  headers(id: string, at: Date, body: string): WebhookHeaders {
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': this.webhook.sign(id, at, body),
    };
  }
}
