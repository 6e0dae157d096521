import { Inject, Injectable } from '@nestjs/common';
import { DeliveryConnection } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { SecretUnreadable } from '@shared/secrets';
import { DeliveryProvider } from '../providers/delivery-provider';
import { createDeliveryProvider, deliveryProviderOptions } from '../providers/provider-factory';
import { ProviderSettingsError } from '../providers/provider-settings-error';
import { DeliveryProviderName } from '../providers/provider-settings';
import { ConnectionSecrets } from './connection-secrets';
import { EnteredSettings } from './connection-mapping';

/** Builds the provider a connection (or a setup page's entered settings) describes, under this deployment's delivery options. */
@Injectable()
export class ConnectionProviders {
  constructor(
    private readonly secrets: ConnectionSecrets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Throws ProviderSettingsError naming the setting that cannot make a provider. */
  forSettings(provider: DeliveryProviderName, settings: EnteredSettings): DeliveryProvider {
    return createDeliveryProvider(provider, settings, deliveryProviderOptions(this.config));
  }

  /** A saved connection's provider; 409 `delivery_connection_incomplete` when its secrets are missing, unreadable or its settings refused. */
  forConnection(connection: DeliveryConnection): DeliveryProvider {
    const incomplete = (why: string) =>
      EmailErrors.fail(
        'delivery_connection_incomplete',
        `The connection "${connection.name}" cannot be used: ${why} Replace its credentials through a setup session.`,
      );
    if (!connection.secrets) throw incomplete('it has no saved credentials.');
    let secrets: Record<string, string>;
    try {
      secrets = this.secrets.open(connection.id, connection.secrets);
    } catch (error) {
      if (error instanceof SecretUnreadable) throw incomplete('its saved credentials cannot be opened with the encryption keys this server has.');
      throw error;
    }
    try {
      return this.forSettings(connection.provider as DeliveryProviderName, { config: savedConfig(connection), secrets });
    } catch (error) {
      if (error instanceof ProviderSettingsError) throw incomplete(error.message);
      throw error;
    }
  }
}

/** The public settings as saved, without the `has_*` flags. */
function savedConfig(connection: DeliveryConnection): EnteredSettings['config'] {
  const saved = (connection.provider_config ?? {}) as Record<string, string | number | null>;
  return Object.fromEntries(Object.entries(saved).filter(([key]) => !key.startsWith('has_')));
}
