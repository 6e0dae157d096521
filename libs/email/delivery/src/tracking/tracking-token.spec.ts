import { trustedWorkspaceId } from '@shared/core';
import { MessageTracking } from './message-tracking';
import { clickPath, openPixelPath, TrackingTokens } from './tracking-token';

const SECRET = 'a-cursor-secret-of-at-least-32-characters!!';
const ws = trustedWorkspaceId('wsp_01HZX0000000000000000000AA');
const other = trustedWorkspaceId('wsp_01HZX0000000000000000000BB');
const source = { type: 'broadcast', id: 'brd_01HZX0000000000000000000DD' };
const claims = { workspaceId: ws, subscriberId: 'sub_01HZX0000000000000000000CC', source };
const SENT = new Date('2026-11-01T10:00:00Z');
const DAY = 86_400_000;

describe('TrackingTokens', () => {
  const tokens = new TrackingTokens(SECRET);

  it('round-trips the workspace, the subscriber and the source while unexpired; is compact and URL-safe', () => {
    const token = tokens.sign(claims, SENT);
    expect(token).toMatch(/^t1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(token.length).toBeLessThanOrEqual(200);
    expect(tokens.verify(token, new Date(SENT.getTime() + 729 * DAY))).toEqual(claims);
  });

  it('expires two years after the send', () => {
    const token = tokens.sign(claims, SENT);
    expect(tokens.verify(token, new Date(SENT.getTime() + 730 * DAY))).toBeNull();
    const short = new TrackingTokens(SECRET, 60_000);
    expect(short.verify(short.sign(claims, SENT), new Date(SENT.getTime() + 59_000))).toEqual(claims);
    expect(short.verify(short.sign(claims, SENT), new Date(SENT.getTime() + 60_000))).toBeNull();
  });

  it('refuses tampering, truncation, junk, another key and the unsubscribe kind of token', () => {
    const token = tokens.sign(claims, SENT);
    const [version, payload, mac] = token.split('.');
    const forged = Buffer.from(`${other}~${claims.subscriberId}~broadcast~${source.id}~zzzzzz`).toString('base64url');
    const flipped = mac.slice(0, -1) + (mac.endsWith('A') ? 'B' : 'A');
    for (const bad of [`${version}.${forged}.${mac}`, `${version}.${payload}.${flipped}`, `${version}.${payload}`, `u1.${payload}.${mac}`, '', 'x', 42, null]) {
      expect(tokens.verify(bad, SENT)).toBeNull();
    }
    expect(tokens.verify(new TrackingTokens('another-deployment-secret-of-32-characters!').sign(claims, SENT), SENT)).toBeNull();
  });

  it("signs a link for one message and one exact URL: not another URL, another message's or another workspace's", () => {
    const url = 'https://example.com/a?x=1';
    const signature = tokens.linkSignature(claims, url);
    expect(signature).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(tokens.linkMatches(claims, url, signature)).toBe(true);
    expect(tokens.linkMatches(claims, 'https://example.com/a?x=2', signature)).toBe(false);
    expect(tokens.linkMatches(claims, 'https://evil.example/', signature)).toBe(false);
    expect(tokens.linkMatches({ ...claims, source: { type: 'broadcast', id: 'brd_other' } }, url, signature)).toBe(false);
    expect(tokens.linkMatches({ ...claims, workspaceId: other }, url, signature)).toBe(false);
    expect(tokens.linkMatches(claims, url, 'not a signature!')).toBe(false);
  });

  it('builds the public paths', () => {
    expect(openPixelPath('t1.a.b')).toBe('/o/t1.a.b');
    expect(clickPath('t1.a.b', 'sig', 'https://x.example/?a=1&b=2')).toBe('/c/t1.a.b/sig?u=https%3A%2F%2Fx.example%2F%3Fa%3D1%26b%3D2');
  });
});

describe('MessageTracking', () => {
  const tokens = new TrackingTokens(SECRET);
  const links = ['https://example.com/one', 'mailto:hi@example.com', 'https://example.com/two?a=1&b=2'];
  const message = (trackOpens: boolean, trackClicks: boolean) =>
    new MessageTracking(tokens, 'https://mail.example.com/', { workspaceId: ws, source, links, trackOpens, trackClicks });

  it('gives each recipient signed click URLs for web links (mailto left alone) and a pixel URL', () => {
    const recipient = message(true, true).forRecipient(claims.subscriberId, SENT);
    const token = tokens.sign(claims, SENT);
    expect(recipient.openPixelUrl).toBe(`https://mail.example.com${openPixelPath(token)}`);
    expect(links.map((url, i) => recipient.linkHook!(url, i))).toEqual([
      `https://mail.example.com${clickPath(token, tokens.linkSignature(claims, links[0]), links[0])}`,
      'mailto:hi@example.com',
      `https://mail.example.com${clickPath(token, tokens.linkSignature(claims, links[2]), links[2])}`,
    ]);
    // A URL that is not the message's link at that index is not signed.
    expect(recipient.linkHook!('https://evil.example/', 0)).toBe('https://evil.example/');
  });

  it('tracks only what the message asks for', () => {
    expect(message(false, false).forRecipient('sub_1', SENT)).toEqual({});
    expect(message(true, false).forRecipient('sub_1', SENT)).toEqual({ openPixelUrl: expect.stringMatching(/^https:\/\/mail\.example\.com\/o\/t1\./) });
    const clicksOnly = message(false, true).forRecipient('sub_1', SENT);
    expect(clicksOnly.openPixelUrl).toBeUndefined();
    expect(clicksOnly.linkHook!(links[0], 0)).toMatch(/^https:\/\/mail\.example\.com\/c\/t1\./);
  });
});
