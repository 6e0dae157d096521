import type { FormsPrisma } from '@forms/data-access';
import { OAUTH_PURGE_INDEXES, oauthPurgeIndexPlans } from '@shared/testing';
import { OAuthRepository } from './oauth.repository';

describe('OAuthRepository purge statements (real PostgreSQL plans)', () => {
  it('reads the codes, tokens and sessions by the indexes on their cut-off columns', async () => {
    const now = new Date(Date.UTC(2026, 5, 1));
    const plans = await oauthPurgeIndexPlans('forms', (recorder) =>
      new OAuthRepository(recorder as unknown as FormsPrisma).purgeOAuthBatchOfAllWorkspaces({ now, revokedBefore: now }, 1000),
    );
    expect(plans).toEqual(OAUTH_PURGE_INDEXES.map((indexes) => expect.arrayContaining(indexes)));
  });
});
