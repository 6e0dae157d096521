import { audienceHash, SendProofs } from './preflight-proof';

const SECRET = 'a-cursor-secret-of-at-least-32-characters!!';
const AT = new Date('2026-05-01T10:00:00Z');
const claims = { workspaceId: 'wsp_a', broadcastId: 'brd_a', contentVersion: 3, audienceHash: audienceHash(null), connectionId: 'edc_a', recipients: 42 };
const now = { contentVersion: 3, audienceHash: claims.audienceHash, connectionId: 'edc_a' };
const later = (ms: number) => new Date(AT.getTime() + ms);

describe('SendProofs', () => {
  const proofs = new SendProofs(SECRET);

  it('binds a proof to the broadcast version, audience and connection, for ten minutes', () => {
    const { proof, expiresAt } = proofs.issue(claims, AT);
    expect(proof).toMatch(/^bp1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(expiresAt).toEqual(later(10 * 60_000));
    expect(proofs.read(proof, 'wsp_a', 'brd_a', now, later(9 * 60_000))).toEqual({ kind: 'valid', claims });
    expect(proofs.read(proof, 'wsp_a', 'brd_a', now, later(10 * 60_000)).kind).toBe('expired');
  });

  it('is stale once the content version, the audience or the connection moved, expired or not', () => {
    const { proof } = proofs.issue(claims, AT);
    for (const change of [{ contentVersion: 4 }, { audienceHash: audienceHash({ match: 'all', groups: [] }) }, { connectionId: 'edc_b' }]) {
      expect(proofs.read(proof, 'wsp_a', 'brd_a', { ...now, ...change }, AT).kind).toBe('stale');
      expect(proofs.read(proof, 'wsp_a', 'brd_a', { ...now, ...change }, later(3_600_000)).kind).toBe('stale');
    }
  });

  it("refuses another broadcast's or workspace's proof, another key's, and anything altered", () => {
    const { proof } = proofs.issue(claims, AT);
    expect(proofs.read(proof, 'wsp_a', 'brd_b', now, AT).kind).toBe('invalid');
    expect(proofs.read(proof, 'wsp_b', 'brd_a', now, AT).kind).toBe('invalid');
    expect(new SendProofs('another-deployment-secret-of-32-characters!').read(proof, 'wsp_a', 'brd_a', now, AT).kind).toBe('invalid');
    for (const bad of [proof.slice(0, -1), `${proof}x`, proof.replace('bp1.', 'u1.'), '', 42, null])
      expect(proofs.read(bad, 'wsp_a', 'brd_a', now, AT).kind).toBe('invalid');
  });

  it('hashes equal definitions alike whatever their key order', () => {
    expect(audienceHash({ match: 'all', groups: [] })).toBe(audienceHash({ groups: [], match: 'all' }));
    expect(audienceHash({ match: 'any', groups: [] })).not.toBe(audienceHash({ match: 'all', groups: [] }));
  });
});
