import { ProviderDescription, ProviderSetting } from '../providers/provider-settings';
import { EnteredSettings } from './connection-mapping';

export interface ReadSettings extends EnteredSettings {
  /** By setting key: what is wrong with the value, in words for the person who typed it. */
  errors: Record<string, string>;
}

const MAX_LENGTH = 2000;

/**
 * The setup form's fields for one provider: each setting read by its key, trimmed (pasted keys often carry a space),
 * checked, and split into public values and secrets. Fields the provider does not have are ignored.
 */
export function readEnteredSettings(provider: ProviderDescription, fields: Record<string, unknown>): ReadSettings {
  const result: ReadSettings = { config: {}, secrets: {}, errors: {} };
  for (const setting of provider.settings) {
    const raw = fields[setting.key];
    const value = typeof raw === 'string' ? raw.trim() : '';
    const problem = check(setting, value);
    if (problem) {
      result.errors[setting.key] = problem;
      if (!setting.secret) result.config[setting.key] = value;
      continue;
    }
    if (!value) continue;
    if (setting.secret) result.secrets[setting.key] = value;
    else result.config[setting.key] = setting.kind === 'port' ? Number(value) : value;
  }
  return result;
}

function check(setting: ProviderSetting, value: string): string | undefined {
  if (!value) return setting.required ? `${setting.label} is required.` : undefined;
  if (value.length > MAX_LENGTH) return `${setting.label} is longer than ${MAX_LENGTH} characters.`;
  if ([...value].some((char) => char < ' ' || char === '\u007f')) return `${setting.label} contains control characters.`;
  if (setting.kind === 'port' && !(/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535)) {
    return `${setting.label} must be a whole number from 1 to 65535.`;
  }
  if (setting.kind === 'choice' && !setting.choices?.includes(value)) return `${setting.label} must be one of ${setting.choices?.join(', ')}.`;
  if (setting.key === 'host' && !/^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/.test(value)) return 'Enter the host name only, without a scheme, port or path.';
  return undefined;
}
