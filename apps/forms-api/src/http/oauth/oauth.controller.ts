import { Body, Controller, Get, Header, HttpCode, Inject, Options, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { BrowserSessions, sendSessionPage } from '@shared/browser-session';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { AuthorizeCheck, authorizationServerMetadata, OAuthError, OAuthServer, RegistrationLimiter, sendOAuthAnswer, sendOAuthPreflight } from '@shared/oauth';
import { FORMS_SCOPES } from '@forms/accounts';
import { ConnectionsService, OwnerSignIn, scopeWords } from '@forms/oauth';
import { consentPage, messagePage, SIGN_IN_PATH } from '../account/account-pages';

type Params = Record<string, unknown>;
/** The endpoints an app calls itself (never with cookies), which browser-based apps call across origins. */
const APP_ENDPOINTS = ['oauth/register', 'oauth/token', 'oauth/revoke'];
const METADATA_PATHS = ['.well-known/oauth-authorization-server', '.well-known/openid-configuration'];
/** The authorization request's parameters the consent form carries back with the decision. */
const REQUEST_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

/**
 * The forms service's OAuth 2.1 authorization server on forms-api's origin: metadata, dynamic client registration,
 * the authorization endpoint with its consent page, token exchange and revocation (the rules live in @shared/oauth).
 * A grant is the signed-in owner's: its tokens act with the owner's live memberships, limited by the granted scopes.
 */
@ApiExcludeController()
@Public()
@Controller()
export class FormsOAuthController {
  private readonly metadata: Record<string, unknown>;

  constructor(
    private readonly oauth: OAuthServer,
    private readonly sessions: BrowserSessions,
    private readonly owners: OwnerSignIn,
    private readonly connections: ConnectionsService,
    private readonly registrations: RegistrationLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.metadata = authorizationServerMetadata({
      issuer: config.formsPublicBaseUrl,
      scopes: FORMS_SCOPES,
      documentationUrl: `${config.formsPublicBaseUrl}/llms.txt`,
    });
  }

  // Clients that only speak OpenID Connect discovery read the same RFC 8414 document (no ID tokens are issued).
  @Get(METADATA_PATHS)
  @Header('cache-control', 'public, max-age=300')
  @Header('access-control-allow-origin', '*')
  serverMetadata(): Record<string, unknown> {
    return this.metadata;
  }

  /** CORS preflight: no cookie is ever read on these endpoints, so any origin may call them. */
  @Options([...APP_ENDPOINTS, ...METADATA_PATHS])
  preflight(@Res() reply: FastifyReply): FastifyReply {
    return sendOAuthPreflight(reply);
  }

  @Post('oauth/register')
  register(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendOAuthAnswer(reply, 201, async () => {
      const retryAfter = await this.registrations.attempt(request.ip);
      if (retryAfter !== null) {
        reply.header('retry-after', String(retryAfter));
        throw new OAuthError('too_many_requests', 'Too many client registrations from this address; try again later.', 429);
      }
      return this.oauth.register(body);
    });
  }

  @Post('oauth/token')
  token(@Body() body: Params | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendOAuthAnswer(reply, 200, () => this.oauth.token(body ?? {}));
  }

  @Post('oauth/revoke')
  @HttpCode(200)
  revoke(@Body() body: Params | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendOAuthAnswer(reply, 200, async () => {
      await this.oauth.revoke(body ?? {});
      return {};
    });
  }

  @Get('oauth/authorize')
  async authorize(@Query() query: Params, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.consent(request, reply, query, await this.oauth.checkAuthorize(query));
  }

  /** The consent form's decision, re-checked from its own copy of the request's parameters. */
  @Post('oauth/authorize')
  async decide(@Body() form: Params | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const params = form ?? {};
    const check = await this.oauth.checkAuthorize(params);
    if (check.kind !== 'consent') return this.consent(request, reply, params, check);
    const session = await this.sessions.current(request);
    if (!session) return this.toSignIn(reply, params);
    if (!this.sessions.verifyCsrf(request, params.csrf_token))
      return this.consent(request, reply, params, check, 403, 'This form expired. Check the request and choose again.');
    if (params.decision !== 'approve') return reply.code(303).header('location', this.oauth.deny(check.request)).send();
    const grantId = await this.connections.approve(session.userId, check.request);
    // The shared mechanism's `workspaceId` carries the owner: a forms grant names no workspace (see @forms/oauth).
    const location = await this.oauth.approve(check.request, { grantId, userId: session.userId, workspaceId: session.userId, scopes: check.request.scopes });
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
    if (check.kind === 'refuse') return sendSessionPage(reply, 400, messagePage('This app cannot connect', check.message));
    if (check.kind === 'redirect') return reply.code(303).header('location', check.location).send();
    const session = await this.sessions.current(request);
    const owner = session && (await this.owners.findOwner(session.userId));
    if (!session || !owner) return this.toSignIn(reply, params);
    const workspaces = await this.owners.workspacesOf(owner.id);
    if (workspaces.length === 0)
      return sendSessionPage(
        reply,
        403,
        messagePage('No workspace to connect', 'Your account does not belong to any workspace yet, so an app would have nothing to work on.'),
      );
    return sendSessionPage(
      reply,
      status,
      consentPage({
        csrfToken: session.csrfToken,
        clientName: check.request.client.name,
        redirectUri: check.request.redirectUri,
        scopes: scopeWords(check.request.scopes),
        workspaces,
        ownerEmail: owner.email,
        params: requestParams(params),
        error,
      }),
    );
  }

  private toSignIn(reply: FastifyReply, params: Params): FastifyReply {
    const returnTo = `/oauth/authorize?${new URLSearchParams(requestParams(params)).toString()}`;
    return reply
      .code(303)
      .header('location', `${SIGN_IN_PATH}?return_to=${encodeURIComponent(returnTo)}`)
      .send();
  }
}

function requestParams(params: Params): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of REQUEST_PARAMS) if (typeof params[name] === 'string') kept[name] = params[name];
  return kept;
}
