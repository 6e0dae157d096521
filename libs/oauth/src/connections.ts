/** How stale a connection's last_used_at may get before a use writes it again. */
export const LAST_USED_INTERVAL_MS = 60_000;

/** An API key's use of the MCP server, recorded as a connection (its last use written at most once a minute). */
export interface ApiKeyConnectionUse {
  newId: string;
  apiKeyId: string;
  scopes: string[];
  at: Date;
  /** A recorded last use older than this is written again. */
  staleBefore: Date;
}

export function apiKeyConnectionUse(key: { credentialId: string; scopes: readonly string[] }, newId: string, now: Date): ApiKeyConnectionUse {
  return { newId, apiKeyId: key.credentialId, scopes: [...key.scopes], at: now, staleBefore: new Date(now.getTime() - LAST_USED_INTERVAL_MS) };
}
