import { Body, Get, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountFlow } from './account-flow';

type Form = Record<string, unknown>;

/** Where every service's account pages live (the sign-in flow returns only to `/account/…` and `/oauth/authorize?…`). */
export const ACCOUNT_PATHS = {
  signIn: '/account/sign-in',
  signOut: '/account/sign-out',
  connectedApps: '/account/connected-apps',
} as const;

/** The account pages' routes, for a service's controller to extend (it adds `@Controller()`, `@Public()` and the flow). */
export abstract class AccountRoutes {
  protected abstract readonly flow: AccountFlow;

  @Get(ACCOUNT_PATHS.signIn.slice(1))
  signInForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('return_to') returnTo?: string): FastifyReply {
    return this.flow.signInForm(request, reply, returnTo);
  }

  @Post(ACCOUNT_PATHS.signIn.slice(1))
  signInPost(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    return this.flow.signIn(request, reply, form);
  }

  @Post(ACCOUNT_PATHS.signOut.slice(1))
  signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    return this.flow.signOut(request, reply, form);
  }

  @Get(ACCOUNT_PATHS.connectedApps.slice(1))
  connectedApps(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('revoked') revoked?: string): Promise<FastifyReply> {
    return this.flow.connectedApps(request, reply, revoked);
  }

  @Post(`${ACCOUNT_PATHS.connectedApps.slice(1)}/revoke`)
  revoke(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    return this.flow.revoke(request, reply, form);
  }
}
