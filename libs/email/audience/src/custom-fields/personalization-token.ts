/**
 * A custom field's token name, from its current label: its runs of letters and digits (any script), each capitalised,
 * joined by underscores ("Favorite color" → `Favorite_Color`). Everything else separates words, so the name always
 * parses as a token. Empty when the label has no letter or digit.
 */
export function personalizationKey(label: string): string {
  return (label.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).map((word) => word.replace(/^./u, (first) => first.toUpperCase())).join('_');
}

/** The ready-to-paste token for a custom field: `[Subscriber_Favorite_Color, fallback=""]`. */
export const personalizationToken = (label: string): string => `[Subscriber_${personalizationKey(label)}, fallback=""]`;

/**
 * What makes two labels one token, for the unique label key: the token name in lower case, composed (NFC), so labels
 * that differ only in case, spacing, punctuation or Unicode composition cannot give two fields one token.
 */
export const tokenIdentity = (label: string): string => personalizationKey(label.normalize('NFC')).toLowerCase();

/** Token names the subscriber's own values use; a custom field's label may not produce them. */
export const BUILT_IN_TOKEN_IDENTITIES: ReadonlySet<string> = new Set(['name', 'email']);
