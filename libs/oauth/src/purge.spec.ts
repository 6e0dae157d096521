import { REVOKED_TOKEN_RETENTION_MS } from './oauth-providers';
import { type OAuthPurgeCounts, type OAuthPurgeCutoffs, purgeOAuthRecords } from './purge';

describe('purgeOAuthRecords', () => {
  it('asks for batches until every kind comes back short, and adds up what went', async () => {
    const left = { codes: 5, tokens: 2, sessions: 0 };
    const calls: OAuthPurgeCutoffs[] = [];
    const take = (kind: keyof OAuthPurgeCounts, limit: number) => {
      const deleted = Math.min(left[kind], limit);
      left[kind] -= deleted;
      return deleted;
    };
    const store = {
      purgeOAuthBatchOfAllWorkspaces: async (cutoffs: OAuthPurgeCutoffs, limit: number) => {
        calls.push(cutoffs);
        return { codes: take('codes', limit), tokens: take('tokens', limit), sessions: take('sessions', limit) };
      },
    };
    const now = new Date(Date.UTC(2026, 5, 1));

    expect(await purgeOAuthRecords(store, now, 2)).toEqual({ codes: 5, tokens: 2, sessions: 0 });
    expect(calls).toHaveLength(3);
    expect(calls[0]).toEqual({ now, revokedBefore: new Date(now.getTime() - REVOKED_TOKEN_RETENTION_MS) });
  });
});
