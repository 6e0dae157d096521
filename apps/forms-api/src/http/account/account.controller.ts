import { Body, Controller, Get, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { BrowserSessions, sendSessionPage, SignedOutCsrf, SignInLimiter } from '@shared/browser-session';
import { RateLimitGuard } from '@shared/rate-limit';
import { AppSessionGuard, ConnectionsService, OwnerSignIn } from '@forms/oauth';
import { CONNECTED_APPS_PATH, connectedAppsPage, messagePage, SIGN_IN_PATH, SIGN_OUT_PATH, signInPage } from './account-pages';

type Form = Record<string, unknown>;
const field = (form: Form | undefined, name: string): string => (typeof form?.[name] === 'string' ? form[name] : '');

/** Where a sign-in may return to: this server's authorization or account pages only, never another origin. */
export function safeReturnTo(value: unknown): string {
  return typeof value === 'string' && /^\/(oauth\/authorize\?|account\/)/.test(value) && !value.includes('\\') ? value : CONNECTED_APPS_PATH;
}

/** The browser pages of an owner's account (sign-in, sign-out, connected apps) and the app session's own description. */
@ApiExcludeController()
@Public()
@Controller()
export class AccountController {
  constructor(
    private readonly sessions: BrowserSessions,
    private readonly signInCsrf: SignedOutCsrf,
    private readonly limiter: SignInLimiter,
    private readonly owners: OwnerSignIn,
    private readonly connections: ConnectionsService,
  ) {}

  @Get(SIGN_IN_PATH.slice(1))
  signInForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('return_to') returnTo?: string): FastifyReply {
    const csrfToken = this.signInCsrf.issue(request, reply);
    return sendSessionPage(reply, 200, signInPage({ csrfToken, returnTo: safeReturnTo(returnTo) }));
  }

  @Post(SIGN_IN_PATH.slice(1))
  async signIn(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    const email = field(form, 'email').trim();
    const returnTo = safeReturnTo(field(form, 'return_to'));
    const again = (status: number, error: string) =>
      sendSessionPage(reply, status, signInPage({ csrfToken: this.signInCsrf.issue(request, reply), returnTo, email, error }));
    if (!this.signInCsrf.verify(request, form?.csrf_token)) return again(403, 'This form expired. Please sign in again.');
    if (!email || !field(form, 'password')) return again(400, 'Enter your email address and password.');
    const retryAfter = await this.limiter.retryAfter(email, request.ip);
    if (retryAfter !== null) {
      reply.header('retry-after', String(retryAfter));
      return again(429, `Too many sign-in attempts. Try again in ${Math.ceil(retryAfter / 60)} minute${retryAfter > 60 ? 's' : ''}.`);
    }
    const ownerId = await this.owners.checkPassword(email, field(form, 'password'));
    if (!ownerId) {
      await this.limiter.recordFailure(email, request.ip);
      return again(401, 'That email address and password do not match an account.');
    }
    await this.sessions.signIn(request, reply, ownerId);
    return reply.code(303).header('location', returnTo).send();
  }

  @Post(SIGN_OUT_PATH.slice(1))
  async signOut(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    if (!this.sessions.verifyCsrf(request, form?.csrf_token))
      return sendSessionPage(reply, 403, messagePage('Not signed out', 'This form expired. Reload the page and try again.'));
    await this.sessions.signOut(request, reply);
    return reply.code(303).header('location', SIGN_IN_PATH).send();
  }

  @Get(CONNECTED_APPS_PATH.slice(1))
  connectedApps(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('revoked') revoked?: string): Promise<FastifyReply> {
    return this.renderConnectedApps(request, reply, 200, revoked === '1' ? 'The app was disconnected.' : undefined);
  }

  @Post(`${CONNECTED_APPS_PATH.slice(1)}/revoke`)
  async revoke(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    const session = await this.sessions.current(request);
    if (!session) return this.toSignIn(reply);
    if (!this.sessions.verifyCsrf(request, form?.csrf_token))
      return this.renderConnectedApps(request, reply, 403, undefined, 'This form expired. Please try again.');
    if (!(await this.connections.revoke(session.userId, field(form, 'connection_id'))))
      return this.renderConnectedApps(request, reply, 404, undefined, 'That app is not connected to your account.');
    return reply.code(303).header('location', `${CONNECTED_APPS_PATH}?revoked=1`).send();
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

  private async renderConnectedApps(request: FastifyRequest, reply: FastifyReply, status: number, notice?: string, error?: string): Promise<FastifyReply> {
    const session = await this.sessions.current(request);
    const owner = session && (await this.owners.findOwner(session.userId));
    if (!session || !owner) return this.toSignIn(reply);
    const connections = await this.connections.list(owner.id);
    return sendSessionPage(reply, status, connectedAppsPage({ csrfToken: session.csrfToken, ownerEmail: owner.email, connections, notice, error }));
  }

  private toSignIn(reply: FastifyReply): FastifyReply {
    return reply
      .code(303)
      .header('location', `${SIGN_IN_PATH}?return_to=${encodeURIComponent(CONNECTED_APPS_PATH)}`)
      .send();
  }
}
