import { apiKeyConnectionUse, LAST_USED_INTERVAL_MS } from './connections';

it("records an API key's use with its scopes, rewriting a last use only once it is a minute old", () => {
  const now = new Date('2026-01-01T00:10:00Z');
  const use = apiKeyConnectionUse({ credentialId: 'key_1', scopes: ['tags:read'] }, 'mcn_1', now);
  expect(use).toEqual({ newId: 'mcn_1', apiKeyId: 'key_1', scopes: ['tags:read'], at: now, staleBefore: new Date('2026-01-01T00:09:00Z') });
  expect(LAST_USED_INTERVAL_MS).toBe(60_000);
});
