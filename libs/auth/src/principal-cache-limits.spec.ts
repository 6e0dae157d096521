import { Principal } from './principal';
import { PrincipalCache } from './principal-cache';

const principal = (credentialId: string, expiresAt: Date | null = null): Principal => ({
  credentialType: 'workspace_api_key',
  credentialId,
  subjectId: 'wsp_1',
  scopes: [],
  expiresAt,
  credential: {},
});

describe('PrincipalCache limits', () => {
  it('keys entries by a SHA-256 of the token, never the token itself', () => {
    expect(PrincipalCache.keyOf('mrk_secret')).toBe(PrincipalCache.keyOf('mrk_secret'));
    expect(PrincipalCache.keyOf('mrk_secret')).not.toBe(PrincipalCache.keyOf('mrk_secres'));
    expect(PrincipalCache.keyOf('mrk_secret')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('serves an entry until just before its ttl ends, and a credential until just before it expires', () => {
    let now = 1_000;
    const cache = new PrincipalCache(100, 10, () => now);
    cache.set('k', principal('key_1'));
    cache.set('e', principal('key_2', new Date(1_050)));
    now = 1_049;
    expect([cache.get('k')?.credentialId, cache.get('e')?.credentialId]).toEqual(['key_1', 'key_2']);
    now = 1_050;
    expect([cache.get('k')?.credentialId, cache.get('e')]).toEqual(['key_1', undefined]);
    now = 1_099;
    expect(cache.get('k')?.credentialId).toBe('key_1');
    now = 1_100;
    expect(cache.get('k')).toBeUndefined();
  });

  it('drops only the oldest entry when full', () => {
    const cache = new PrincipalCache(60_000, 2);
    for (const key of ['a', 'b', 'c']) cache.set(key, principal(`key_${key}`));
    expect(['a', 'b', 'c'].map((key) => cache.get(key)?.credentialId)).toEqual([undefined, 'key_b', 'key_c']);
  });

  it('evicts the matching entries only, and everything without a predicate', () => {
    const cache = new PrincipalCache(60_000);
    for (const key of ['a', 'b']) cache.set(key, principal(`key_${key}`));
    cache.evict((p) => p.credentialId === 'key_a');
    expect([cache.get('a'), cache.get('b')?.credentialId]).toEqual([undefined, 'key_b']);
    cache.evict();
    expect(cache.get('b')).toBeUndefined();
  });

  it('stores a verification that started after the last eviction', () => {
    const cache = new PrincipalCache(60_000);
    cache.evict();
    const generation = cache.generation;
    cache.set('k', principal('key_1'), generation);
    expect(cache.get('k')?.credentialId).toBe('key_1');
  });
});
