import { REVOKED_TOKEN_RETENTION_MS } from './oauth-providers';

/** Which rows the purge deletes: codes and sessions expired at `now`, tokens expired at `now` or revoked before `revokedBefore`. */
export interface OAuthPurgeCutoffs {
  now: Date;
  revokedBefore: Date;
}

export interface OAuthPurgeCounts {
  codes: number;
  tokens: number;
  sessions: number;
}

/** A service's repository: deletes up to `limit` rows of each kind past the cut-offs and says how many went. */
export interface OAuthPurgeStore {
  purgeOAuthBatchOfAllWorkspaces(cutoffs: OAuthPurgeCutoffs, limit: number): Promise<OAuthPurgeCounts>;
}

const BATCH = 1_000;

/** Deletes expired authorization codes, expired browser sessions, and tokens expired or revoked long enough ago, in batches. */
export async function purgeOAuthRecords(store: OAuthPurgeStore, now: Date, batch = BATCH): Promise<OAuthPurgeCounts> {
  const cutoffs = { now, revokedBefore: new Date(now.getTime() - REVOKED_TOKEN_RETENTION_MS) };
  const total: OAuthPurgeCounts = { codes: 0, tokens: 0, sessions: 0 };
  for (;;) {
    const deleted = await store.purgeOAuthBatchOfAllWorkspaces(cutoffs, batch);
    total.codes += deleted.codes;
    total.tokens += deleted.tokens;
    total.sessions += deleted.sessions;
    if (Math.max(deleted.codes, deleted.tokens, deleted.sessions) < batch) return total;
  }
}
