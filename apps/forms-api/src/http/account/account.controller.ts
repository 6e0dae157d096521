import { Body, Controller, Get, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@shared/auth';
import { BrowserSessions, sendSessionPage, SignInAnswer, SignInFlow } from '@shared/browser-session';
import { RateLimitGuard } from '@shared/rate-limit';
import { AppSessionGuard, ConnectionsService, OwnerSignIn } from '@forms/oauth';
import { CONNECTED_APPS_PATH, connectedAppsPage, messagePage, SIGN_IN_PATH, SIGN_OUT_PATH, signInPage } from './account-pages';

type Form = Record<string, unknown>;
const field = (form: Form | undefined, name: string): string => (typeof form?.[name] === 'string' ? form[name] : '');

/** The browser pages of an owner's account (sign-in, sign-out, connected apps) and the app session's own description. */
@ApiExcludeController()
@Public()
@Controller()
export class AccountController {
  constructor(
    private readonly sessions: BrowserSessions,
    private readonly signIn: SignInFlow,
    private readonly owners: OwnerSignIn,
    private readonly connections: ConnectionsService,
  ) {}

  @Get(SIGN_IN_PATH.slice(1))
  signInForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Query('return_to') returnTo?: string): FastifyReply {
    return this.answerSignIn(reply, this.signIn.form(request, reply, returnTo));
  }

  @Post(SIGN_IN_PATH.slice(1))
  async signInPost(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() form?: Form): Promise<FastifyReply> {
    return this.answerSignIn(reply, await this.signIn.submit(request, reply, form));
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

  private answerSignIn(reply: FastifyReply, answer: SignInAnswer): FastifyReply {
    return answer.kind === 'redirect' ? reply.code(303).header('location', answer.location).send() : sendSessionPage(reply, answer.status, signInPage(answer));
  }

  private toSignIn(reply: FastifyReply): FastifyReply {
    return reply
      .code(303)
      .header('location', `${SIGN_IN_PATH}?return_to=${encodeURIComponent(CONNECTED_APPS_PATH)}`)
      .send();
  }
}
