import { randomBytes, timingSafeEqual } from 'node:crypto';
import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

const COOKIE = 'pl_setup_csrf';

/**
 * Double-submit CSRF protection for the setup form: a random token in a strict same-site cookie scoped to the setup
 * path and the same token in a hidden field. Another site can neither read the cookie nor make the browser send it,
 * so a forged post never matches. A browser `Origin` header naming another site is refused as well; the page's own
 * posts say `Origin: null`, because its referrer policy is `no-referrer`.
 */
export class SetupCsrf {
  constructor(
    private readonly publicBaseUrl: string,
    private readonly path: string,
    private readonly maxAgeSeconds: number,
  ) {}

  /** The request's token if it has a well-formed one, else a new one; either way the cookie is (re)set. */
  issue(request: FastifyRequest, reply: FastifyReply): string {
    const token = this.cookieOf(request) ?? randomBytes(24).toString('base64url');
    reply.header(
      'set-cookie',
      serialize(COOKIE, token, {
        path: this.path,
        httpOnly: true,
        sameSite: 'strict',
        secure: this.publicBaseUrl.startsWith('https:'),
        maxAge: this.maxAgeSeconds,
      }),
    );
    return token;
  }

  verify(request: FastifyRequest, submitted: unknown): boolean {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== 'null' && origin !== new URL(this.publicBaseUrl).origin) return false;
    const cookie = this.cookieOf(request);
    if (!cookie || typeof submitted !== 'string') return false;
    const expected = Buffer.from(cookie);
    const given = Buffer.from(submitted);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private cookieOf(request: FastifyRequest): string | undefined {
    const value = parse(request.headers.cookie ?? '')[COOKIE];
    return value && /^[A-Za-z0-9_-]{32}$/.test(value) ? value : undefined;
  }
}
