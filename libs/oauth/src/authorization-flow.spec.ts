import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BrowserSessions } from '@shared/browser-session';
import { AuthorizationFlow, AuthorizationFlowOptions } from './authorization-flow';
import type { AuthorizationRequest, OAuthServer } from './oauth-server';

const authorization = { client: { name: 'App' }, redirectUri: 'https://app.example/cb', scopes: ['a:read'] } as unknown as AuthorizationRequest;
const query = { client_id: 'c1', state: 's1', unrelated: 'x' };

/** Records what a route answered: status, headers and the page's title. */
function fakeReply() {
  const answer = { status: 200, headers: {} as Record<string, string>, body: '' };
  const reply = {
    code: (status: number) => ((answer.status = status), reply),
    status: (status: number) => ((answer.status = status), reply),
    header: (name: string, value: string) => ((answer.headers[name] = value), reply),
    send: (body = '') => ((answer.body = body), reply),
  };
  return { reply: reply as unknown as FastifyReply, answer };
}

function flowWith(options: Partial<AuthorizationFlowOptions<{ id: string }>> & { signedIn?: boolean; csrfOk?: boolean } = {}) {
  const approved: unknown[] = [];
  const oauth = {
    checkAuthorize: async () => ({ kind: 'consent', request: authorization }),
    deny: () => 'https://app.example/cb?error=access_denied',
    approve: async (_request: AuthorizationRequest, grant: unknown) => (approved.push(grant), 'https://app.example/cb?code=1'),
  } as unknown as OAuthServer;
  const sessions = {
    current: async () => (options.signedIn === false ? null : { id: 's', userId: 'usr_1', csrfToken: 't', expiresAt: new Date() }),
    verifyCsrf: () => options.csrfOk !== false,
  } as unknown as BrowserSessions;
  const flow = new AuthorizationFlow(oauth, sessions, {
    signInPath: '/account/sign-in',
    messagePage: (title, message) => ({ title, product: 'P', body: message }),
    findAccount: async (id) => ({ id, email: 'a@b.c' }),
    workspacesOf: async () => [{ id: 'ws_1' }],
    noWorkspace: 'No workspace yet.',
    consentPage: (context) => ({ title: 'Consent', product: 'P', body: JSON.stringify(context.params) + (context.error ?? '') }),
    grant: async () => ({ grantId: 'g1', workspaceId: 'ws_1' }),
    ...options,
  });
  return { flow, approved };
}

const request = {} as FastifyRequest;

describe('AuthorizationFlow', () => {
  it('sends a signed-out person to sign in, returning to the request with its own parameters only', async () => {
    const { reply, answer } = fakeReply();
    await flowWith({ signedIn: false }).flow.authorize(request, reply, query);
    expect(answer.status).toBe(303);
    const returnTo = new URL(answer.headers.location, 'http://x').searchParams.get('return_to');
    expect(returnTo).toBe('/oauth/authorize?client_id=c1&state=s1');
  });

  it('shows the consent page with the request parameters, and a 403 page to an account without a workspace', async () => {
    const shown = fakeReply();
    await flowWith().flow.authorize(request, shown.reply, query);
    expect([shown.answer.status, shown.answer.body]).toEqual([200, expect.stringContaining('{"client_id":"c1","state":"s1"}')]);
    const none = fakeReply();
    await flowWith({ workspacesOf: async () => [] }).flow.authorize(request, none.reply, query);
    expect([none.answer.status, none.answer.body]).toEqual([403, expect.stringContaining('No workspace yet.')]);
  });

  it('approves with the grant the service recorded, or shows its refusal again with 400', async () => {
    const ok = flowWith();
    const approved = fakeReply();
    await ok.flow.decide(request, approved.reply, { ...query, decision: 'approve', csrf_token: 't' });
    expect([approved.answer.status, approved.answer.headers.location]).toEqual([303, 'https://app.example/cb?code=1']);
    expect(ok.approved).toEqual([{ grantId: 'g1', workspaceId: 'ws_1', userId: 'usr_1', scopes: ['a:read'] }]);

    const refused = flowWith({ grant: async () => ({ error: 'Choose one.' }) });
    const again = fakeReply();
    await refused.flow.decide(request, again.reply, { ...query, decision: 'approve' });
    expect([again.answer.status, again.answer.body]).toEqual([400, expect.stringContaining('Choose one.')]);
    expect(refused.approved).toEqual([]);
  });

  it('refuses a decision without the session CSRF token (403) and sends a denial back to the app', async () => {
    const forged = fakeReply();
    await flowWith({ csrfOk: false }).flow.decide(request, forged.reply, { ...query, decision: 'approve' });
    expect(forged.answer.status).toBe(403);
    const denied = fakeReply();
    await flowWith().flow.decide(request, denied.reply, { ...query, decision: 'deny' });
    expect(denied.answer.headers.location).toBe('https://app.example/cb?error=access_denied');
  });
});
