import { Body, Controller, Get, Header, HttpCode, Inject, Options, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { BrowserSessions } from '@shared/browser-session';
import { APP_CONFIG, AppConfig } from '@shared/config';
import {
  AuthorizationFlow,
  authorizationServerMetadata,
  OAuthError,
  OAuthServer,
  protectedResourceMetadata,
  RegistrationLimiter,
  sendOAuthAnswer,
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
  private readonly flow: AuthorizationFlow;

  constructor(
    private readonly oauth: OAuthServer,
    sessions: BrowserSessions,
    users: UsersService,
    connections: ConnectionsService,
    private readonly registrations: RegistrationLimiter,
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
    this.flow = new AuthorizationFlow(oauth, sessions, {
      signInPath: SIGN_IN_PATH,
      refusalPage: (message) => messagePage('This app cannot connect', message),
      consentPage: async ({ accountId, csrfToken, request, params, status, error }) => {
        const user = await users.findUser(accountId);
        if (!user) return null;
        const workspaces = await users.workspacesOf(user.id);
        if (workspaces.length === 0)
          return {
            status: 403,
            page: messagePage('No workspace to connect', 'Your account does not belong to any workspace yet. Ask an administrator to add you to one.'),
          };
        const page = consentPage({
          csrfToken,
          clientName: request.client.name,
          redirectUri: request.redirectUri,
          scopes: scopeWords(request.scopes),
          workspaces,
          userEmail: user.email,
          params,
          error,
        });
        return { status, page };
      },
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
  async register(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
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
  async token(@Body() body: Params | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendOAuthAnswer(reply, 200, () => this.oauth.token(body ?? {}));
  }

  @Post('oauth/revoke')
  @HttpCode(200)
  async revoke(@Body() body: Params | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendOAuthAnswer(reply, 200, async () => {
      await this.oauth.revoke(body ?? {});
      return {};
    });
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
