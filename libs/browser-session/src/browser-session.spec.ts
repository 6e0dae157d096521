import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BrowserSessions, BrowserSessionStore, SignedOutCsrf, StoredBrowserSession } from './browser-sessions';
import { SignInFlow } from './sign-in-flow';
import { SignInLimiter } from './sign-in-limiter';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from './passwords';
import { pageCsp, SESSION_PAGE_STYLE, sessionHtmlPage } from './page-shell';
import { useSecureCookies } from './secure-cookies';

function replyRecorder() {
  const headers: Record<string, string> = {};
  return { headers, reply: { header: (name: string, value: string) => ((headers[name] = value), undefined) } as unknown as FastifyReply };
}
const requestWith = (cookie: string) => ({ headers: { cookie } }) as FastifyRequest;

describe('useSecureCookies', () => {
  it.each([
    ['https://mail.example.com', true],
    ['http://mail.example.com', true],
    ['http://localhost:3000', false],
    ['http://127.0.0.1:3000', false],
    ['http://app.localhost:3000', false],
  ])('%s → Secure %s', (url, secure) => expect(useSecureCookies(url)).toBe(secure));
});

describe('BrowserSessions', () => {
  const rows = new Map<string, StoredBrowserSession>();
  const store: BrowserSessionStore = {
    createSession: async ({ tokenHash, ...session }) => void rows.set(tokenHash, session),
    findSession: async (tokenHash, now) => ((rows.get(tokenHash)?.expiresAt ?? now) > now ? rows.get(tokenHash)! : null),
    deleteSession: async (tokenHash) => void rows.delete(tokenHash),
  };
  const sessions = new BrowserSessions(store, { cookieName: 'sid', secure: true, ttlMs: 60_000, newId: () => 'bss_1' });

  it('keeps only the digest, sets an HttpOnly SameSite=Lax Secure cookie and derives a session-bound CSRF token', async () => {
    const { headers, reply } = replyRecorder();
    await sessions.signIn(requestWith(''), reply, 'usr_1');
    const cookie = headers['set-cookie'];
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; Max-Age=60; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    const token = cookie.split(';')[0].slice(4);
    expect([...rows.keys()]).not.toContain(token);
    const session = await sessions.current(requestWith(cookie.split(';')[0]));
    expect(session).toMatchObject({ id: 'bss_1', userId: 'usr_1' });
    expect(sessions.verifyCsrf(requestWith(`sid=${token}`), session!.csrfToken)).toBe(true);
    expect(sessions.verifyCsrf(requestWith(`sid=${token}`), 'x'.repeat(43))).toBe(false);
    expect(sessions.verifyCsrf(requestWith(''), session!.csrfToken)).toBe(false);

    // Signing in again replaces the session; the old token no longer names one.
    await sessions.signIn(requestWith(`sid=${token}`), replyRecorder().reply, 'usr_1');
    expect(await sessions.current(requestWith(`sid=${token}`))).toBeNull();
    expect(rows.size).toBe(1);
  });
});

describe('passwords', () => {
  it('hash with argon2id and verify only the right password', async () => {
    const stored = await hashPassword('a long enough password');
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored, 'a long enough password')).toBe(true);
    expect(await verifyPassword(stored, 'another password')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
    expect(await verifyAgainstDecoy('anything')).toBe(false);
  });
});

describe('pageCsp', () => {
  const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

  it("allows the page's own stylesheet and script by hash, and forms to post back here and to the named targets only", () => {
    const session = pageCsp(sessionHtmlPage({ title: 'Sign in', product: 'Postline', body: '', formTargets: ['http://127.0.0.1:8123/cb?x=1'] }));
    expect(session).toBe(
      `default-src 'none'; style-src ${hashOf(SESSION_PAGE_STYLE)}; form-action 'self' http://127.0.0.1:8123; base-uri 'none'; frame-ancestors 'none'`,
    );
    const upload = pageCsp({ style: 'p{}', script: 'go()', connectSelf: true });
    expect(upload).toBe(
      `default-src 'none'; style-src ${hashOf('p{}')}; script-src ${hashOf('go()')}; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
    );
  });
});

describe('SignInFlow.safeReturnTo', () => {
  const flow = new SignInFlow({} as BrowserSessions, {} as SignedOutCsrf, {} as SignInLimiter, {
    checkPassword: async () => null,
    returnTo: /^\/(oauth\/authorize\?|account\/)/,
    fallback: '/account/connected-apps',
  });

  it.each([
    ['/oauth/authorize?client_id=x', '/oauth/authorize?client_id=x'],
    ['/account/connected-apps', '/account/connected-apps'],
    ['//evil.example/account/', '/account/connected-apps'],
    ['https://evil.example/account/', '/account/connected-apps'],
    ['/\\evil.example', '/account/connected-apps'],
    ['/docs', '/account/connected-apps'],
    [undefined, '/account/connected-apps'],
  ])('%s → %s', (value, expected) => expect(flow.safeReturnTo(value)).toBe(expected));
});
