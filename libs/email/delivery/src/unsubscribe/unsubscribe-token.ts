import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { trustedWorkspaceId, WorkspaceId } from '@shared/core';

/** What a per-recipient unsubscribe link names: the recipient, and optionally what the email was (a broadcast, a sequence email). */
export interface UnsubscribeClaims {
  workspaceId: WorkspaceId;
  subscriberId: string;
  source?: { type: string; id: string };
}

/** Ids and source types are short, URL-safe words: anything else is refused when a token is built and when one is read. */
const FIELD = /^[A-Za-z0-9_-]{1,100}$/;
/** HMAC-SHA256 truncated to 128 bits (RFC 2104 §5 allows any length of at least half the output): the link stays short. */
const MAC_BYTES = 16;
const VERSION = 'u1';

/**
 * Signed per-recipient unsubscribe tokens: `u1.<base64url payload>.<base64url mac>`. The payload is the workspace id,
 * the subscriber id and the optional source, joined by '~'. No expiry: RFC 8058 and the mail clients that cache a
 * List-Unsubscribe URL expect it to keep working for as long as the email sits in someone's inbox.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  /** `secret` is the configured CURSOR_SECRET; the key is derived from it for this one purpose. */
  constructor(secret: string) {
    if (!secret) throw new Error('UnsubscribeTokens needs a secret');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'postline', 'unsubscribe-token v1', 32));
  }

  sign(claims: UnsubscribeClaims): string {
    const fields = [claims.workspaceId, claims.subscriberId, ...(claims.source ? [claims.source.type, claims.source.id] : [])];
    if (!fields.every((field) => FIELD.test(field))) throw new RangeError('unsubscribe token fields must be URL-safe ids');
    const payload = Buffer.from(fields.join('~'), 'utf8').toString('base64url');
    return `${VERSION}.${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The token's claims, or null for anything not signed by this key (tampered, truncated, another deployment's). */
  verify(token: unknown): UnsubscribeClaims | null {
    if (typeof token !== 'string' || token.length > 600) return null;
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) return null;
    const [, payload, mac] = parts;
    if (!/^[A-Za-z0-9_-]+$/.test(payload) || !/^[A-Za-z0-9_-]+$/.test(mac)) return null;
    const given = Buffer.from(mac, 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const fields = Buffer.from(payload, 'base64url').toString('utf8').split('~');
    if ((fields.length !== 2 && fields.length !== 4) || !fields.every((field) => FIELD.test(field))) return null;
    const [workspaceId, subscriberId, type, id] = fields;
    // The signature is ours, so the workspace it names is one we put there when the email was built.
    return { workspaceId: trustedWorkspaceId(workspaceId), subscriberId, ...(type ? { source: { type, id } } : {}) };
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key).update(`${VERSION}.${payload}`).digest().subarray(0, MAC_BYTES);
  }
}

/** The public path of an unsubscribe link; email-api serves GET (confirm page) and POST (one-click and the page's form). */
export const unsubscribePath = (token: string): string => `/u/${token}`;

/** The two headers every marketing email carries (RFC 2369 List-Unsubscribe, RFC 8058 one-click). */
export function unsubscribeHeaders(publicBaseUrl: string, token: string): { 'List-Unsubscribe': string; 'List-Unsubscribe-Post': string } {
  return {
    'List-Unsubscribe': `<${publicBaseUrl.replace(/\/+$/, '')}${unsubscribePath(token)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
