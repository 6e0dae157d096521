import { Body, Controller, Get, Header, HttpCode, Inject, Options, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { BrowserSessions } from '@shared/browser-session';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { AuthorizationFlow, authorizationServerMetadata, OAuthEndpoints, OAuthServer, RegistrationLimiter, sendOAuthPreflight } from '@shared/oauth';
import { FORMS_SCOPES } from '@forms/accounts';
import { ConnectionsService, OwnerSignIn, OwnerWorkspace, scopeWords } from '@forms/oauth';
import { consentPage, messagePage, SIGN_IN_PATH } from '../account/account-pages';

type Params = Record<string, unknown>;
/** The endpoints an app calls itself (never with cookies), which browser-based apps call across origins. */
const APP_ENDPOINTS = ['oauth/register', 'oauth/token', 'oauth/revoke'];
const METADATA_PATHS = ['.well-known/oauth-authorization-server', '.well-known/openid-configuration'];

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
  private readonly endpoints: OAuthEndpoints;
  private readonly flow: AuthorizationFlow<OwnerWorkspace>;

  constructor(
    oauth: OAuthServer,
    sessions: BrowserSessions,
    owners: OwnerSignIn,
    connections: ConnectionsService,
    registrations: RegistrationLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.metadata = authorizationServerMetadata({
      issuer: config.formsPublicBaseUrl,
      scopes: FORMS_SCOPES,
      documentationUrl: `${config.formsPublicBaseUrl}/llms.txt`,
    });
    this.endpoints = new OAuthEndpoints(oauth, registrations);
    this.flow = new AuthorizationFlow(oauth, sessions, {
      signInPath: SIGN_IN_PATH,
      messagePage,
      findAccount: (id) => owners.findOwner(id),
      workspacesOf: (ownerId) => owners.workspacesOf(ownerId),
      noWorkspace: 'Your account does not belong to any workspace yet, so an app would have nothing to work on.',
      consentPage: ({ account, request, ...view }) =>
        consentPage({
          ...view,
          clientName: request.client.name,
          redirectUri: request.redirectUri,
          scopes: scopeWords(request.scopes),
          ownerEmail: account.email,
        }),
      // The shared mechanism's `workspaceId` carries the owner: a forms grant names no workspace (see @forms/oauth).
      grant: async (ownerId, _form, request) => ({ grantId: await connections.approve(ownerId, request), workspaceId: ownerId }),
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
    return this.endpoints.register(request, reply, body);
  }

  @Post('oauth/token')
  token(@Body() body: Params | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.endpoints.token(reply, body);
  }

  @Post('oauth/revoke')
  @HttpCode(200)
  revoke(@Body() body: Params | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.endpoints.revoke(reply, body);
  }

  @Get('oauth/authorize')
  authorize(@Query() query: Params, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.flow.authorize(request, reply, query);
  }

  /** The consent form's decision, re-checked from its own copy of the request's parameters. */
  @Post('oauth/authorize')
  decide(@Body() form: Params | undefined, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return this.flow.decide(request, reply, form);
  }
}
