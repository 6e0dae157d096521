import { Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { AccountFlow, AccountRoutes, BrowserSessions, SignInFlow } from '@shared/browser-session';
import { ConnectionsService, UsersService } from '@email/oauth';
import { accountPages, connectedApps } from './account-pages';

/** The browser pages of a person's account: sign-in, sign-out and connected apps. */
@ApiExcludeController()
@Public()
@Controller()
export class AccountController extends AccountRoutes {
  protected readonly flow: AccountFlow;

  constructor(sessions: BrowserSessions, signIn: SignInFlow, users: UsersService, connections: ConnectionsService) {
    super();
    this.flow = new AccountFlow(sessions, signIn, accountPages, {
      findAccount: (id) => users.findUser(id),
      connectedApps: async (userId) => connectedApps(await connections.list(userId)),
      revoke: (userId, field) => connections.revoke(userId, field('workspace_id'), field('connection_id')),
      notConnected: 'That app is not connected to any of your workspaces.',
    });
  }
}
