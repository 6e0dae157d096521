import { Body, Controller, Get, Header, HttpCode, Inject, Options, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { BrowserSessions } from '@shared/browser-session';
import { APP_CONFIG, AppConfig } from '@shared/config';
import {
  AuthorizationFlow,
  authorizationServerMetadata,
  OAuthEndpoints,
  OAuthServer,
  protectedResourceMetadata,
  RegistrationLimiter,
  sendOAuthPreflight,
} from '@shared/oauth';
import { EMAIL_SCOPES } from '@email/access';
import { ConnectionsService, scopeWords, UsersService } from '@email/oauth';
import { consentPage, messagePage, SIGN_IN_PATH } from '../account/account-pages';

type Params = Record<string, unknown>;
/** The endpoints an app calls itself (never with cookies), which browser-based apps call across origins. */
const APP_ENDPOINTS = ['oauth/register', 'oauth/token', 'oauth/revoke'];
const METADATA_PATHS = ['.well-known/oauth-authorization-server', '.well-known/openid-configuration', '.well-known/oauth-protected-resource'];

/**
 * The email service's OAuth 2.1 authorization server: metadata, dynamic client registration, the authorization
 * endpoint with its consent page, token exchange and revocation. The protocol rules live in @shared/oauth.
 */
@ApiExcludeController()
@Public()
@Controller()
export class OAuthController {
  private readonly metadata: Record<string, unknown>;
  private readonly apiResource: Record<string, unknown>;
  private readonly endpoints: OAuthEndpoints;
  private readonly flow: AuthorizationFlow<{ id: string; name: string }>;

  constructor(
    oauth: OAuthServer,
    sessions: BrowserSessions,
    users: UsersService,
    connections: ConnectionsService,
    registrations: RegistrationLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.metadata = authorizationServerMetadata({
      issuer: config.publicBaseUrl,
      scopes: EMAIL_SCOPES,
      documentationUrl: `${config.docsBaseUrl}/authentication`,
    });
    this.apiResource = protectedResourceMetadata({
      resource: config.publicBaseUrl,
      name: 'Postline email API',
      authorizationServer: config.publicBaseUrl,
      scopes: EMAIL_SCOPES,
      documentationUrl: `${config.docsBaseUrl}/authentication`,
    });
    this.endpoints = new OAuthEndpoints(oauth, registrations);
    this.flow = new AuthorizationFlow(oauth, sessions, {
      signInPath: SIGN_IN_PATH,
      messagePage,
      findAccount: (id) => users.findUser(id),
      workspacesOf: (userId) => users.workspacesOf(userId),
      noWorkspace: 'Your account does not belong to any workspace yet. Ask an administrator to add you to one.',
      consentPage: ({ account, request, ...view }) =>
        consentPage({
          ...view,
          clientName: request.client.name,
          redirectUri: request.redirectUri,
          scopes: scopeWords(request.scopes),
          userEmail: account.email,
        }),
      grant: async (userId, form, request) => {
        const workspaceId = await connections.memberWorkspace(userId, form.workspace_id);
        if (!workspaceId) return { error: 'Choose one of your workspaces.' };
        return { grantId: await connections.approve(workspaceId, userId, request), workspaceId };
      },
    });
  }

  // Clients that only speak OpenID Connect discovery read the same RFC 8414 document (no ID tokens are issued).
  @Get(METADATA_PATHS.slice(0, 2))
  @Header('cache-control', 'public, max-age=300')
  @Header('access-control-allow-origin', '*')
  serverMetadata(): Record<string, unknown> {
    return this.metadata;
  }

  /** RFC 9728 for the REST API itself (the MCP endpoint has its own document under /mcp). */
  @Get(METADATA_PATHS[2])
  @Header('cache-control', 'public, max-age=300')
  @Header('access-control-allow-origin', '*')
  apiResourceMetadata(): Record<string, unknown> {
    return this.apiResource;
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
