/** The spec's "empty or null optional value": absent, null, an empty or all-space string, or an empty array. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}
