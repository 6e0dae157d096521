import { SecretBox } from '@shared/secrets';
import { newSigningSecret, signingSecretPreview } from '../signing';

/**
 * Seals a webhook destination's signing secret bound to its id (`<kind>:<id>:signing_secret`), so a sealed secret
 * copied onto another row does not open. Each service names its kind (`webhook_subscription`, `webhook_endpoint`).
 */
export class SigningSecrets {
  constructor(
    private readonly box: SecretBox,
    private readonly kind: string,
  ) {}

  /** A new secret for a row (at creation and rotation): the secret itself, shown once, and the columns to store. */
  issue(id: string): { secret: string; columns: { signing_secret: string; signing_secret_preview: string } } {
    const secret = newSigningSecret();
    return { secret, columns: { signing_secret: this.seal(id, secret), signing_secret_preview: signingSecretPreview(secret) } };
  }

  seal(id: string, secret: string): string {
    return this.box.seal(secret, this.context(id));
  }

  open(id: string, sealed: string): string {
    return this.box.open(sealed, this.context(id));
  }

  needsRewrap(sealed: string): boolean {
    return this.box.needsRewrap(sealed);
  }

  rewrap(id: string, sealed: string): string {
    return this.box.rewrap(sealed, this.context(id));
  }

  private context(id: string): string {
    return `${this.kind}:${id}:signing_secret`;
  }
}
