import type { FastifyReply, FastifyRequest } from 'fastify';
import { BrowserSessions, SignedOutCsrf } from './browser-sessions';
import { SignInLimiter } from './sign-in-limiter';

export interface SignInFlowOptions {
  /** The account's id when the password matches, else null (taking as long for an unknown account). */
  checkPassword(email: string, password: string): Promise<string | null>;
  /** The paths of this origin a sign-in may return to (matched from the start); anything else goes to `fallback`. */
  returnTo: RegExp;
  fallback: string;
}

/** What the sign-in page answers: the form again (with why), or the redirect once signed in. */
export type SignInAnswer =
  { kind: 'form'; status: number; csrfToken: string; returnTo: string; email?: string; error?: string } | { kind: 'redirect'; location: string };

type Form = Record<string, unknown> | undefined;
/** A posted form's text field, or '' when it is missing or not text. */
export const formField = (form: Form, name: string): string => (typeof form?.[name] === 'string' ? form[name] : '');

/**
 * The sign-in form's rules, for every service: the form's CSRF token, the attempt limits (checked before the
 * password, failures counted), a new session on success and a return only to an allowed path of this origin.
 * The service renders the answer with its own page.
 */
export class SignInFlow {
  constructor(
    private readonly sessions: BrowserSessions,
    private readonly csrf: SignedOutCsrf,
    private readonly limiter: SignInLimiter,
    private readonly options: SignInFlowOptions,
  ) {}

  /** A path of this origin that `value` may name, else the fallback (never another origin). */
  safeReturnTo(value: unknown): string {
    return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\') && this.options.returnTo.test(value)
      ? value
      : this.options.fallback;
  }

  form(request: FastifyRequest, reply: FastifyReply, returnTo: unknown): SignInAnswer {
    return { kind: 'form', status: 200, csrfToken: this.csrf.issue(request, reply), returnTo: this.safeReturnTo(returnTo) };
  }

  async submit(request: FastifyRequest, reply: FastifyReply, form: Form): Promise<SignInAnswer> {
    const email = formField(form, 'email').trim();
    const password = formField(form, 'password');
    const returnTo = this.safeReturnTo(formField(form, 'return_to'));
    const again = (status: number, error: string): SignInAnswer => ({
      kind: 'form',
      status,
      csrfToken: this.csrf.issue(request, reply),
      returnTo,
      email,
      error,
    });
    if (!this.csrf.verify(request, form?.csrf_token)) return again(403, 'This form expired. Please sign in again.');
    if (!email || !password) return again(400, 'Enter your email address and password.');
    const retryAfter = await this.limiter.retryAfter(email, request.ip);
    if (retryAfter !== null) {
      reply.header('retry-after', String(retryAfter));
      const minutes = Math.ceil(retryAfter / 60);
      return again(429, `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    }
    const accountId = await this.options.checkPassword(email, password);
    if (!accountId) {
      await this.limiter.recordFailure(email, request.ip);
      return again(401, 'That email address and password do not match an account.');
    }
    await this.sessions.signIn(request, reply, accountId);
    return { kind: 'redirect', location: returnTo };
  }
}
