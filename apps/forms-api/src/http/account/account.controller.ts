import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { AccountFlow, AccountRoutes, BrowserSessions, SignInFlow } from '@shared/browser-session';
import { RateLimitGuard } from '@shared/rate-limit';
import { AppSessionGuard, ConnectionsService, OwnerSignIn } from '@forms/oauth';
import { accountPages, connectedApps } from './account-pages';

/** The browser pages of an owner's account (sign-in, sign-out, connected apps) and the app session's own description. */
@ApiExcludeController()
@Public()
@Controller()
export class AccountController extends AccountRoutes {
  protected readonly flow: AccountFlow;

  constructor(
    private readonly sessions: BrowserSessions,
    signIn: SignInFlow,
    private readonly owners: OwnerSignIn,
    connections: ConnectionsService,
  ) {
    super();
    this.flow = new AccountFlow(sessions, signIn, accountPages, {
      findAccount: (id) => owners.findOwner(id),
      connectedApps: async (ownerId) => connectedApps(await connections.list(ownerId)),
      revoke: (ownerId, field) => connections.revoke(ownerId, field('connection_id')),
      notConnected: 'That app is not connected to your account.',
    });
  }

  /**
   * The signed-in owner and the session's CSRF token, for a JS app on this origin: it sends the token back in
   * `X-CSRF-Token` on every unsafe app-session request. No CORS header, so no other site can read it.
   */
  @Get('api/session')
  @UseGuards(AppSessionGuard, RateLimitGuard)
  async session(@Req() request: FastifyRequest) {
    const session = (await this.sessions.current(request))!;
    const owner = (await this.owners.findOwner(session.userId))!;
    return { owner: { id: owner.id, email: owner.email, username: owner.username }, csrfToken: session.csrfToken, expiresAt: session.expiresAt.toISOString() };
  }
}
