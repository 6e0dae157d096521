import { Injectable } from '@nestjs/common';
import { SecretBox } from '@shared/secrets';

/** A connection's secrets by setting key (`password`, `api_key`, …), plus `feedback_token`, which we generate. */
export type ConnectionSecretValues = Record<string, string>;

const context = (connectionId: string) => `delivery_connection:${connectionId}:secrets`;

/** Seals a connection's secrets as one value bound to its id, so sealed secrets copied onto another connection do not open. */
@Injectable()
export class ConnectionSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(connectionId: string, secrets: ConnectionSecretValues): string {
    return this.box.seal(JSON.stringify(secrets), context(connectionId));
  }

  /** Throws SecretUnreadable when the value was altered, belongs elsewhere or was sealed under a key no longer configured. */
  open(connectionId: string, sealed: string | null): ConnectionSecretValues {
    if (!sealed) return {};
    return JSON.parse(this.box.open(sealed, context(connectionId))) as ConnectionSecretValues;
  }

  needsRewrap(sealed: string): boolean {
    return this.box.needsRewrap(sealed);
  }

  rewrap(connectionId: string, sealed: string): string {
    return this.box.rewrap(sealed, context(connectionId));
  }
}
