import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountPages, type ConnectedAppRow } from './account-pages';
import { BrowserSessions } from './browser-sessions';
import { sendSessionPage } from './page-shell';
import { formField, SignInAnswer, SignInFlow } from './sign-in-flow';

type Form = Record<string, unknown> | undefined;

export interface AccountFlowOptions {
  /** The signed-in account's address for the pages, or null when the account is gone (sign in again). */
  findAccount(id: string): Promise<{ id: string; email: string } | null>;
  /** The account's connected apps, and the service's extra columns. */
  connectedApps(accountId: string): Promise<{ apps: ConnectedAppRow[]; columns?: string[] }>;
  /** Revokes the connection the revoke form names (`field` reads its text fields); false when the account has no such live connection. */
  revoke(accountId: string, field: (name: string) => string): Promise<boolean>;
  /** The 404 message when `revoke` found nothing. */
  notConnected: string;
}

/**
 * The account pages' routes, for every service: the sign-in form and its post (rules in `SignInFlow`), sign-out, the
 * connected apps and their revoke form (session CSRF). Signed-out visitors go to sign-in and back to connected apps.
 */
export class AccountFlow {
  constructor(
    private readonly sessions: BrowserSessions,
    private readonly signInFlow: SignInFlow,
    private readonly pages: AccountPages,
    private readonly options: AccountFlowOptions,
  ) {}

  signInForm(request: FastifyRequest, reply: FastifyReply, returnTo: unknown): FastifyReply {
    return this.answerSignIn(reply, this.signInFlow.form(request, reply, returnTo));
  }

  async signIn(request: FastifyRequest, reply: FastifyReply, form: Form): Promise<FastifyReply> {
    return this.answerSignIn(reply, await this.signInFlow.submit(request, reply, form));
  }

  async signOut(request: FastifyRequest, reply: FastifyReply, form: Form): Promise<FastifyReply> {
    if (!this.sessions.verifyCsrf(request, form?.csrf_token))
      return sendSessionPage(reply, 403, this.pages.message('Not signed out', 'This form expired. Reload the page and try again.'));
    await this.sessions.signOut(request, reply);
    return reply.code(303).header('location', this.pages.paths.signInPath).send();
  }

  connectedApps(request: FastifyRequest, reply: FastifyReply, revoked: unknown): Promise<FastifyReply> {
    return this.renderConnectedApps(request, reply, 200, revoked === '1' ? 'The app was disconnected.' : undefined);
  }

  async revoke(request: FastifyRequest, reply: FastifyReply, form: Form): Promise<FastifyReply> {
    const session = await this.sessions.current(request);
    if (!session) return this.toSignIn(reply);
    if (!this.sessions.verifyCsrf(request, form?.csrf_token))
      return this.renderConnectedApps(request, reply, 403, undefined, 'This form expired. Please try again.');
    if (!(await this.options.revoke(session.userId, (name) => formField(form, name))))
      return this.renderConnectedApps(request, reply, 404, undefined, this.options.notConnected);
    return reply.code(303).header('location', `${this.pages.paths.connectedAppsPath}?revoked=1`).send();
  }

  private async renderConnectedApps(request: FastifyRequest, reply: FastifyReply, status: number, notice?: string, error?: string): Promise<FastifyReply> {
    const session = await this.sessions.current(request);
    const account = session && (await this.options.findAccount(session.userId));
    if (!session || !account) return this.toSignIn(reply);
    const listed = await this.options.connectedApps(account.id);
    return sendSessionPage(reply, status, this.pages.connectedApps({ csrfToken: session.csrfToken, accountEmail: account.email, ...listed, notice, error }));
  }

  private answerSignIn(reply: FastifyReply, answer: SignInAnswer): FastifyReply {
    return answer.kind === 'redirect'
      ? reply.code(303).header('location', answer.location).send()
      : sendSessionPage(reply, answer.status, this.pages.signIn(answer));
  }

  private toSignIn(reply: FastifyReply): FastifyReply {
    return reply
      .code(303)
      .header('location', `${this.pages.paths.signInPath}?return_to=${encodeURIComponent(this.pages.paths.connectedAppsPath)}`)
      .send();
  }
}
