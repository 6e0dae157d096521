import { Controller, Get, Header, Inject, Options, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@shared/auth';
import { BrowserSessions } from '@shared/browser-session';
import { APP_CONFIG, AppConfig } from '@shared/config';
import {
  AuthorizationFlow,
  authorizationServerMetadata,
  OAuthEndpoints,
  OAuthRoutes,
  OAuthServer,
  protectedResourceMetadata,
  RegistrationLimiter,
  sendOAuthPreflight,
} from '@shared/oauth';
import { EMAIL_SCOPES } from '@email/access';
import { ConnectionsService, scopeWords, UsersService } from '@email/oauth';
import { consentPage, messagePage, SIGN_IN_PATH } from '../account/account-pages';

const API_RESOURCE_PATH = '.well-known/oauth-protected-resource';

/**
 * The email service's OAuth 2.1 authorization server: metadata, dynamic client registration, the authorization
 * endpoint with its consent page, token exchange and revocation. The protocol rules live in @shared/oauth.
 */
@ApiExcludeController()
@Public()
@Controller()
export class OAuthController extends OAuthRoutes {
  protected readonly metadata: Record<string, unknown>;
  private readonly apiResource: Record<string, unknown>;
  protected readonly endpoints: OAuthEndpoints;
  protected readonly flow: AuthorizationFlow<{ id: string; name: string }>;

  constructor(
    oauth: OAuthServer,
    sessions: BrowserSessions,
    users: UsersService,
    connections: ConnectionsService,
    registrations: RegistrationLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
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

  /** RFC 9728 for the REST API itself (the MCP endpoint has its own document under /mcp). */
  @Get(API_RESOURCE_PATH)
  @Header('cache-control', 'public, max-age=300')
  @Header('access-control-allow-origin', '*')
  apiResourceMetadata(): Record<string, unknown> {
    return this.apiResource;
  }

  @Options(API_RESOURCE_PATH)
  apiResourcePreflight(@Res() reply: FastifyReply): FastifyReply {
    return sendOAuthPreflight(reply);
  }
}
