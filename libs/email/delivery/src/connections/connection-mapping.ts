import { DeliveryConnection } from '@email/data-access';
import { PROVIDER_DESCRIPTIONS, type DeliveryProviderName } from '../providers/provider-settings';
import { ConnectionDto, ProviderPublicConfigDto } from './connection.dto';
import { ConnectionSendLimitsDto, SendLimitValuesDto } from './send-limits.dto';
import { providerSendDefaults, SendLimits, sendLimitsOf } from './send-limits';

/** The settings a person entered, split into what may be shown and what is sealed. */
export interface EnteredSettings {
  config: Record<string, string | number | null>;
  secrets: Record<string, string>;
}

/** `provider_config` as stored and returned: the public values, and `has_<secret>` for every secret the provider has. */
export function publicConfig(provider: DeliveryProviderName, settings: EnteredSettings): ProviderPublicConfigDto {
  const shown: Record<string, unknown> = {};
  for (const setting of PROVIDER_DESCRIPTIONS[provider].settings) {
    if (setting.feedbackOnly) continue;
    if (setting.secret) shown[`has_${setting.key}`] = Boolean(settings.secrets[setting.key]);
    else if (settings.config[setting.key] !== undefined) shown[setting.key] = settings.config[setting.key];
  }
  return shown;
}

export function toConnectionDto(connection: DeliveryConnection): ConnectionDto {
  return {
    self: `/v1/email-delivery-connections/${connection.id}`,
    id: connection.id,
    name: connection.name,
    provider: connection.provider as DeliveryProviderName,
    from_email: connection.from_email,
    from_name: connection.from_name,
    enabled: connection.enabled,
    provider_config: (connection.provider_config as ProviderPublicConfigDto | null) ?? null,
    created_at: connection.created_at.toISOString(),
    updated_at: connection.updated_at.toISOString(),
  };
}

const limitValues = (limits: SendLimits): SendLimitValuesDto => ({
  send_rate_per_second: limits.ratePerSecond,
  send_connections: limits.connections,
  daily_quota: limits.dailyQuota,
});

export function toSendLimitsDto(connection: DeliveryConnection): ConnectionSendLimitsDto {
  return {
    self: `/v1/email-delivery-connections/${connection.id}/send-limits`,
    connection_id: connection.id,
    effective: limitValues(sendLimitsOf(connection)),
    settings: {
      send_rate_per_second: connection.send_rate_per_second,
      send_connections: connection.send_connections,
      daily_quota: connection.daily_quota,
    },
    provider_defaults: limitValues(providerSendDefaults(connection.provider)),
  };
}
