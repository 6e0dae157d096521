import { Body, Controller, Get, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { AccountFlow, BrowserSessions, SignInFlow } from '@shared/browser-session';
import { RateLimitGuard } from '@shared/rate-limit';
import { AppSessionGuard, ConnectionsService, OwnerSignIn } from '@forms/oauth';
import { accountPages, CONNECTED_APPS_PATH, connectedApps, SIGN_IN_PATH, SIGN_OUT_PATH } from './account-pages';

type Form = Record<string, unknown>;
const field = (form: Form | undefined, name: string): string => (typeof form?.[name] === 'string' ? form[name] : '');

/** The browser pages of an owner's account (sign-in, sign-out, connected apps) and the app session's own description. */
@ApiExcludeController()
@Public()
@Controller()
export class AccountController {
  private readonly flow: AccountFlow;

  constructor(
    private readonly sessions: BrowserSessions,
    signIn: SignInFlow,
    private readonly owners: OwnerSignIn,
    connections: ConnectionsService,
  ) {
    this.flow = new AccountFlow(sessions, signIn, accountPages, {
      findAccount: (id) => owners.findOwner(id),
      connectedApps: async (ownerId) => connectedApps(await connections.list(ownerId)),
      revoke: (ownerId, form) => connections.revoke(ownerId, field(form, 'connection_id')),
      notConnected: 'That app is not connected to your account.',
    });
  }

  @Get(SIGN_IN_PATH.slice(1))
  signInForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('return_to') returnTo?: string): FastifyReply {
    return this.flow.signInForm(request, reply, returnTo);
  }

  @Post(SIGN_IN_PATH.slice(1))
  signInPost(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    return this.flow.signIn(request, reply, form);
  }

  @Post(SIGN_OUT_PATH.slice(1))
  signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    return this.flow.signOut(request, reply, form);
  }

  @Get(CONNECTED_APPS_PATH.slice(1))
  connectedApps(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('revoked') revoked?: string): Promise<FastifyReply> {
    return this.flow.connectedApps(request, reply, revoked);
  }

  @Post(`${CONNECTED_APPS_PATH.slice(1)}/revoke`)
  revoke(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    return this.flow.revoke(request, reply, form);
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
