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

/** Either service's Prisma client, for the raw statements below (both databases name the OAuth tables alike). */
export interface RawStatementRunner {
  $executeRaw(query: TemplateStringsArray, ...values: unknown[]): PromiseLike<number>;
}

/** One batch of the purge on a service's database: what OAuthPurgeStore.purgeOAuthBatchOfAllWorkspaces runs. */
export async function purgeOAuthBatch(db: RawStatementRunner, { now, revokedBefore }: OAuthPurgeCutoffs, limit: number): Promise<OAuthPurgeCounts> {
  const codes = await db.$executeRaw`DELETE FROM oauth_authorization_codes WHERE code_hash IN (
    SELECT code_hash FROM oauth_authorization_codes WHERE expires_at <= ${now} LIMIT ${limit})`;
  const tokens = await db.$executeRaw`DELETE FROM oauth_tokens WHERE id IN (
    SELECT id FROM oauth_tokens WHERE expires_at <= ${now} OR revoked_at < ${revokedBefore} LIMIT ${limit})`;
  const sessions = await db.$executeRaw`DELETE FROM browser_sessions WHERE id IN (
    SELECT id FROM browser_sessions WHERE expires_at <= ${now} LIMIT ${limit})`;
  return { codes, tokens, sessions };
}
