/**
 * The ready-to-paste token for a custom field, computed from its current label:
 * "Favorite color" → `[Subscriber_Favorite_Color, fallback=""]`. Characters that would break the
 * bracket syntax are dropped.
 */
export function personalizationToken(label: string): string {
  const words = label
    .replace(/[[\],="']/g, ' ')
    .trim()
    .split(/[\s_]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1));
  return `[Subscriber_${words.join('_')}, fallback=""]`;
}
