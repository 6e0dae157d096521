import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { AccountFlow, BrowserSessions, SignInFlow } from '@shared/browser-session';
import { ConnectionsService, UsersService } from '@email/oauth';
import { accountPages, CONNECTED_APPS_PATH, connectedApps, SIGN_IN_PATH, SIGN_OUT_PATH } from './account-pages';

type Form = Record<string, unknown>;
const field = (form: Form | undefined, name: string): string => (typeof form?.[name] === 'string' ? form[name] : '');

/** The browser pages of a person's account: sign-in, sign-out and connected apps. */
@ApiExcludeController()
@Public()
@Controller()
export class AccountController {
  private readonly flow: AccountFlow;

  constructor(sessions: BrowserSessions, signIn: SignInFlow, users: UsersService, connections: ConnectionsService) {
    this.flow = new AccountFlow(sessions, signIn, accountPages, {
      findAccount: (id) => users.findUser(id),
      connectedApps: async (userId) => connectedApps(await connections.list(userId)),
      revoke: (userId, form) => connections.revoke(userId, field(form, 'workspace_id'), field(form, 'connection_id')),
      notConnected: 'That app is not connected to any of your workspaces.',
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
}
