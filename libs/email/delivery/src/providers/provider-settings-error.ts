/**
 * A connection's settings cannot make a provider: a required setting is missing or malformed, or the host or base URL
 * is refused. `field` names the setting (`host`, `region`, `base_url`, …); the message never contains a secret.
 */
export class ProviderSettingsError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderSettingsError';
  }
}
