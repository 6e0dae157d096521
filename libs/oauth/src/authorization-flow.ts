import type { FastifyReply, FastifyRequest } from 'fastify';
import { BrowserSessions, sendSessionPage, type SessionPage } from '@shared/browser-session';
import type { AuthorizationRequest, AuthorizeCheck, OAuthServer } from './oauth-server';

type Params = Record<string, unknown>;
/** The authorization request's parameters the consent form carries back with the decision. */
const REQUEST_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

/** What the consent page is rendered from: the signed-in account, its workspaces and the request. */
export interface ConsentContext<W> {
  account: { id: string; email: string };
  workspaces: W[];
  csrfToken: string;
  request: AuthorizationRequest;
  /** The authorization request's parameters, posted back with the decision. */
  params: Record<string, string>;
  error?: string;
}

export interface AuthorizationFlowOptions<W> {
  /** Where a signed-out person goes (with `return_to`), e.g. `/account/sign-in`. */
  signInPath: string;
  /** The service's message page (an unusable request, an account without a workspace). */
  messagePage(title: string, message: string): SessionPage;
  /** The signed-in account, or null when it is gone (sign in again). */
  findAccount(id: string): Promise<{ id: string; email: string } | null>;
  /** The workspaces the account belongs to: none, and there is nothing to consent to. */
  workspacesOf(accountId: string): Promise<W[]>;
  /** Why an account without a workspace cannot connect an app. */
  noWorkspace: string;
  consentPage(context: ConsentContext<W>): SessionPage;
  /**
   * Records the approved connection for the account from the consent form; `workspaceId` is the tenant the tokens act
   * in. An `error` shows the consent page again (400) with it.
   */
  grant(accountId: string, form: Params, request: AuthorizationRequest): Promise<{ grantId: string; workspaceId: string } | { error: string }>;
}

/**
 * The authorization endpoint's browser side, for every service: the request checked by `OAuthServer`, a signed-out
 * person sent to sign in and back, the consent page, and the decision (session CSRF, deny, or the grant and the code).
 */
export class AuthorizationFlow<W> {
  constructor(
    private readonly oauth: OAuthServer,
    private readonly sessions: BrowserSessions,
    private readonly options: AuthorizationFlowOptions<W>,
  ) {}

  async authorize(request: FastifyRequest, reply: FastifyReply, query: Params): Promise<FastifyReply> {
    return this.consent(request, reply, query, await this.oauth.checkAuthorize(query));
  }

  /** The consent form's decision, re-checked from its own copy of the request's parameters. */
  async decide(request: FastifyRequest, reply: FastifyReply, form: Params | undefined): Promise<FastifyReply> {
    const params = form ?? {};
    const check = await this.oauth.checkAuthorize(params);
    if (check.kind !== 'consent') return this.consent(request, reply, params, check);
    const session = await this.sessions.current(request);
    if (!session) return this.toSignIn(reply, params);
    if (!this.sessions.verifyCsrf(request, params.csrf_token))
      return this.consent(request, reply, params, check, 403, 'This form expired. Check the request and choose again.');
    if (params.decision !== 'approve') return reply.code(303).header('location', this.oauth.deny(check.request)).send();
    const granted = await this.options.grant(session.userId, params, check.request);
    if ('error' in granted) return this.consent(request, reply, params, check, 400, granted.error);
    const location = await this.oauth.approve(check.request, { ...granted, userId: session.userId, scopes: check.request.scopes });
    return reply.code(303).header('location', location).send();
  }

  private async consent(
    request: FastifyRequest,
    reply: FastifyReply,
    params: Params,
    check: AuthorizeCheck,
    status = 200,
    error?: string,
  ): Promise<FastifyReply> {
    if (check.kind === 'refuse') return sendSessionPage(reply, 400, this.options.messagePage('This app cannot connect', check.message));
    if (check.kind === 'redirect') return reply.code(303).header('location', check.location).send();
    const session = await this.sessions.current(request);
    const account = session && (await this.options.findAccount(session.userId));
    if (!session || !account) return this.toSignIn(reply, params);
    const workspaces = await this.options.workspacesOf(account.id);
    if (workspaces.length === 0) return sendSessionPage(reply, 403, this.options.messagePage('No workspace to connect', this.options.noWorkspace));
    const page = this.options.consentPage({ account, workspaces, csrfToken: session.csrfToken, request: check.request, params: requestParams(params), error });
    return sendSessionPage(reply, status, page);
  }

  private toSignIn(reply: FastifyReply, params: Params): FastifyReply {
    const returnTo = `/oauth/authorize?${new URLSearchParams(requestParams(params)).toString()}`;
    return reply
      .code(303)
      .header('location', `${this.options.signInPath}?return_to=${encodeURIComponent(returnTo)}`)
      .send();
  }
}

function requestParams(params: Params): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of REQUEST_PARAMS) if (typeof params[name] === 'string') kept[name] = params[name];
  return kept;
}
