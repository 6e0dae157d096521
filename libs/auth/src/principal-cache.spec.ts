import { PrincipalCache } from './principal-cache';
import { Principal } from './principal';

const principal = (expiresAt: Date | null = null, credentialId = 'key_1'): Principal => ({
  credentialType: 'workspace_api_key',
  credentialId,
  subjectId: 'wsp_1',
  scopes: [],
  expiresAt,
  credential: {},
});

describe('PrincipalCache', () => {
  it('forgets an entry after its ttl, so revocation takes effect', () => {
    let now = 1_000;
    const cache = new PrincipalCache(5_000, 10, () => now);
    cache.set('k', principal());
    expect(cache.get('k')).toBeDefined();
    now += 5_001;
    expect(cache.get('k')).toBeUndefined();
  });

  it('never serves a credential past its own expiry', () => {
    let now = 1_000;
    const cache = new PrincipalCache(60_000, 10, () => now);
    cache.set('k', principal(new Date(2_000)));
    now = 2_000;
    expect(cache.get('k')).toBeUndefined();
  });

  it('caches nothing with a zero ttl and stays bounded', () => {
    const off = new PrincipalCache(0);
    off.set('k', principal());
    expect(off.get('k')).toBeUndefined();
    const small = new PrincipalCache(60_000, 2);
    small.set('a', principal());
    small.set('b', principal());
    small.set('c', principal());
    expect(small.get('a')).toBeUndefined();
    expect(small.get('c')).toBeDefined();
  });

  it('evicts the entries of one credential, or everything', () => {
    const cache = new PrincipalCache(60_000);
    cache.set('a', principal(null, 'key_a'));
    cache.set('b', principal(null, 'key_b'));
    cache.evict((p) => p.credentialId === 'key_a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    cache.evict();
    expect(cache.get('b')).toBeUndefined();
  });

  it('does not store a verification that started before an eviction', () => {
    const cache = new PrincipalCache(60_000);
    const before = cache.generation;
    cache.evict((p) => p.credentialId === 'key_1');
    cache.set('k', principal(), before);
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', principal(), cache.generation);
    expect(cache.get('k')).toBeDefined();
  });
});
