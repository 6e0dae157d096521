import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A signed-in session as the service stores it (the cookie's value is never stored, only its SHA-256 digest). */
export interface StoredBrowserSession {
  id: string;
  userId: string;
  expiresAt: Date;
}

/** What a service implements on its own tables for browser sessions. */
export interface BrowserSessionStore {
  createSession(session: StoredBrowserSession & { tokenHash: string }): Promise<void>;
  /** The live session with this digest (not expired), or null. */
  findSession(tokenHash: string, now: Date): Promise<StoredBrowserSession | null>;
  deleteSession(tokenHash: string): Promise<void>;
}

export interface BrowserSessionOptions {
  /** Cookie name, e.g. `pl_session`. */
  cookieName: string;
  /** From `useSecureCookies(publicBaseUrl)`. */
  secure: boolean;
  /** How long a sign-in lasts. */
  ttlMs: number;
  /** A new session id (e.g. the service's `IdGenerator`). */
  newId: () => string;
  now?: () => Date;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const digest = (token: string) => createHash('sha256').update(token).digest('hex');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A session found from the request's cookie, with the CSRF token its forms carry. */
export interface ActiveBrowserSession extends StoredBrowserSession {
  csrfToken: string;
}

/**
 * Signed-in browser sessions: an opaque random token (256 bits) in an `HttpOnly`, `SameSite=Lax` cookie, stored as
 * its SHA-256 digest. Every form post of a signed-in page carries a CSRF token derived from the session token
 * (HMAC), which another site can neither read nor compute; it changes with every sign-in.
 */
export class BrowserSessions {
  private readonly now: () => Date;

  constructor(
    private readonly store: BrowserSessionStore,
    private readonly options: BrowserSessionOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** Starts a new session (a new token every time: a session id planted before sign-in is worthless) and ends the request's old one. */
  async signIn(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
    const previous = this.tokenOf(request);
    if (previous) await this.store.deleteSession(digest(previous));
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.now().getTime() + this.options.ttlMs);
    await this.store.createSession({ id: this.options.newId(), userId, expiresAt, tokenHash: digest(token) });
    this.setCookie(reply, token, Math.floor(this.options.ttlMs / 1000));
  }

  async current(request: FastifyRequest): Promise<ActiveBrowserSession | null> {
    const token = this.tokenOf(request);
    if (!token) return null;
    const session = await this.store.findSession(digest(token), this.now());
    return session && { ...session, csrfToken: csrfTokenOf(token) };
  }

  /** Whether a form post carries the CSRF token of the session its cookie names. */
  verifyCsrf(request: FastifyRequest, submitted: unknown): boolean {
    const token = this.tokenOf(request);
    return token !== undefined && typeof submitted === 'string' && sameText(csrfTokenOf(token), submitted);
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = this.tokenOf(request);
    if (token) await this.store.deleteSession(digest(token));
    this.setCookie(reply, '', 0);
  }

  private tokenOf(request: FastifyRequest): string | undefined {
    const value = parse(request.headers.cookie ?? '')[this.options.cookieName];
    return value && TOKEN_PATTERN.test(value) ? value : undefined;
  }

  private setCookie(reply: FastifyReply, value: string, maxAge: number): void {
    reply.header('set-cookie', serialize(this.options.cookieName, value, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.options.secure, maxAge }));
  }
}

const csrfTokenOf = (sessionToken: string) => createHmac('sha256', sessionToken).update('csrf').digest('base64url');

/**
 * CSRF protection for a form shown before anyone is signed in (the sign-in form itself): double submit, a random
 * token in an `HttpOnly`, `SameSite=Lax` cookie and the same token in a hidden field. Another site can neither read
 * the cookie nor set it, so a forged post never matches.
 */
export class SignedOutCsrf {
  constructor(
    private readonly cookieName: string,
    private readonly secure: boolean,
  ) {}

  /** The request's token if it has one, else a new one; the cookie is (re)set either way. */
  issue(request: FastifyRequest, reply: FastifyReply): string {
    const token = this.tokenOf(request) ?? randomBytes(32).toString('base64url');
    reply.header('set-cookie', serialize(this.cookieName, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secure, maxAge: 3600 }));
    return token;
  }

  verify(request: FastifyRequest, submitted: unknown): boolean {
    const token = this.tokenOf(request);
    return token !== undefined && typeof submitted === 'string' && sameText(token, submitted);
  }

  private tokenOf(request: FastifyRequest): string | undefined {
    const value = parse(request.headers.cookie ?? '')[this.cookieName];
    return value && TOKEN_PATTERN.test(value) ? value : undefined;
  }
}
