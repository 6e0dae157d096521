import { GdprConsentPurpose } from '@email/data-access';

/** Tag names that carry a GDPR consent purpose (matched case-insensitively). */
export const GDPR_TAG_NAMES: Record<string, GdprConsentPurpose> = {
  'gdpr: email marketing': 'email_marketing',
  'gdpr: ads personalization': 'ads_personalization',
};

export const gdprPurposeOf = (name: string): GdprConsentPurpose | null => GDPR_TAG_NAMES[name.trim().toLowerCase()] ?? null;
