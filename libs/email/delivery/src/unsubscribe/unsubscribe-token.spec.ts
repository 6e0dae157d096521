import { trustedWorkspaceId } from '@shared/core';
import { unsubscribeHeaders, UnsubscribeTokens } from './unsubscribe-token';

const SECRET = 'a-cursor-secret-of-at-least-32-characters!!';
const ws = trustedWorkspaceId('ws_01HZX0000000000000000000AA');
const other = trustedWorkspaceId('ws_01HZX0000000000000000000BB');

describe('UnsubscribeTokens', () => {
  const tokens = new UnsubscribeTokens(SECRET);

  it('round-trips the workspace, the subscriber and the optional source', () => {
    expect(tokens.verify(tokens.sign({ workspaceId: ws, subscriberId: 'sub_1' }))).toEqual({ workspaceId: ws, subscriberId: 'sub_1' });
    const withSource = { workspaceId: ws, subscriberId: 'sub_1', source: { type: 'broadcast', id: 'brd_9' } };
    expect(tokens.verify(tokens.sign(withSource))).toEqual(withSource);
  });

  it('is compact and URL-safe', () => {
    const token = tokens.sign({
      workspaceId: ws,
      subscriberId: 'sub_01HZX0000000000000000000CC',
      source: { type: 'broadcast', id: 'brd_01HZX0000000000000000000DD' },
    });
    expect(token).toMatch(/^u1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(token.length).toBeLessThanOrEqual(170);
  });

  it('refuses a tampered payload, a tampered mac, truncation and junk', () => {
    const token = tokens.sign({ workspaceId: ws, subscriberId: 'sub_1' });
    const [version, payload, mac] = token.split('.');
    const forged = Buffer.from(`${other}~sub_1`).toString('base64url');
    expect(tokens.verify(`${version}.${forged}.${mac}`)).toBeNull();
    const flipped = mac.slice(0, -1) + (mac.endsWith('A') ? 'B' : 'A');
    expect(tokens.verify(`${version}.${payload}.${flipped}`)).toBeNull();
    expect(tokens.verify(`${version}.${payload}.${mac.slice(0, 10)}`)).toBeNull();
    expect(tokens.verify(`u2.${payload}.${mac}`)).toBeNull();
    for (const junk of ['', 'u1..', 'u1.x.y', token + '.x', 42, null, undefined, 'a'.repeat(1000)]) expect(tokens.verify(junk)).toBeNull();
  });

  it('refuses a token signed with another secret (another deployment) even for the same ids', () => {
    const foreign = new UnsubscribeTokens('another-secret-entirely-another-deployment!!');
    expect(tokens.verify(foreign.sign({ workspaceId: ws, subscriberId: 'sub_1' }))).toBeNull();
  });

  it('binds the workspace: another workspace cannot be substituted into a valid token', () => {
    const mine = tokens.sign({ workspaceId: ws, subscriberId: 'sub_1' });
    const theirs = tokens.sign({ workspaceId: other, subscriberId: 'sub_1' });
    expect(mine.split('.')[2]).not.toBe(theirs.split('.')[2]);
    expect(tokens.verify(`${mine.split('.').slice(0, 2).join('.')}.${theirs.split('.')[2]}`)).toBeNull();
    expect(tokens.verify(mine)?.workspaceId).toBe(ws);
  });

  it('still reads the tokens already sent in emails (known answers from before the signing was shared)', () => {
    expect(tokens.verify('u1.d3NfMDFIWlgwMDAwMDAwMDAwMDAwMDAwMDAwQUF-c3ViXzF-YnJvYWRjYXN0fmJyZF85.DgH4kkeZfZRWEDU227e2Qg')).toEqual({
      workspaceId: ws,
      subscriberId: 'sub_1',
      source: { type: 'broadcast', id: 'brd_9' },
    });
    expect(tokens.sign({ workspaceId: ws, subscriberId: 'sub_1' })).toBe('u1.d3NfMDFIWlgwMDAwMDAwMDAwMDAwMDAwMDAwQUF-c3ViXzE.hTrIXVJBXST0Tghr9kdB0Q');
  });

  it('refuses to build a token from ids that are not URL-safe words', () => {
    expect(() => tokens.sign({ workspaceId: ws, subscriberId: 'sub~1' })).toThrow(RangeError);
    expect(() => tokens.sign({ workspaceId: ws, subscriberId: 'sub_1', source: { type: 'a b', id: 'x' } })).toThrow(RangeError);
  });

  it('builds the RFC 8058 headers from the public base URL', () => {
    expect(unsubscribeHeaders('https://mail.example.com/', 'u1.abc.def')).toEqual({
      'List-Unsubscribe': '<https://mail.example.com/u/u1.abc.def>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
