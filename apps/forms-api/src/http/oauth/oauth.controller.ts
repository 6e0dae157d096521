import { Controller, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { BrowserSessions } from '@shared/browser-session';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { AuthorizationFlow, authorizationServerMetadata, OAuthEndpoints, OAuthRoutes, OAuthServer, RegistrationLimiter } from '@shared/oauth';
import { FORMS_SCOPES } from '@forms/accounts';
import { ConnectionsService, OwnerSignIn, OwnerWorkspace, scopeWords } from '@forms/oauth';
import { consentPage, messagePage, SIGN_IN_PATH } from '../account/account-pages';

/**
 * The forms service's OAuth 2.1 authorization server on forms-api's origin: metadata, dynamic client registration,
 * the authorization endpoint with its consent page, token exchange and revocation (the rules live in @shared/oauth).
 * A grant is the signed-in owner's: its tokens act with the owner's live memberships, limited by the granted scopes.
 */
@ApiExcludeController()
@Public()
@Controller()
export class FormsOAuthController extends OAuthRoutes {
  protected readonly metadata: Record<string, unknown>;
  protected readonly endpoints: OAuthEndpoints;
  protected readonly flow: AuthorizationFlow<OwnerWorkspace>;

  constructor(
    oauth: OAuthServer,
    sessions: BrowserSessions,
    owners: OwnerSignIn,
    connections: ConnectionsService,
    registrations: RegistrationLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
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
}
