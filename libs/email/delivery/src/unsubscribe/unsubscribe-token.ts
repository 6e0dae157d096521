import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { SignedFields } from '../signed-fields';

/** What a per-recipient unsubscribe link names: the recipient, and optionally what the email was (a broadcast, a sequence email). */
export interface UnsubscribeClaims {
  workspaceId: WorkspaceId;
  subscriberId: string;
  source?: { type: string; id: string };
}

/**
 * Signed per-recipient unsubscribe tokens: `u1.<base64url payload>.<base64url mac>` (see SignedFields). The payload is
 * the workspace id, the subscriber id and the optional source, joined by '~'. No expiry: RFC 8058 and the mail clients
 * that cache a List-Unsubscribe URL expect it to keep working for as long as the email sits in someone's inbox.
 */
export class UnsubscribeTokens {
  private readonly fields: SignedFields;

  /** `secret` is the configured CURSOR_SECRET; the key is derived from it for this one purpose. */
  constructor(secret: string) {
    this.fields = new SignedFields(secret, 'u1', 'unsubscribe-token v1');
  }

  sign(claims: UnsubscribeClaims): string {
    return this.fields.sign([claims.workspaceId, claims.subscriberId, ...(claims.source ? [claims.source.type, claims.source.id] : [])]);
  }

  /** The token's claims, or null for anything not signed by this key (tampered, truncated, another deployment's). */
  verify(token: unknown): UnsubscribeClaims | null {
    const fields = this.fields.verify(token, [2, 4]);
    if (!fields) return null;
    const [workspaceId, subscriberId, type, id] = fields;
    // The signature is ours, so the workspace it names is one we put there when the email was built.
    return { workspaceId: trustedWorkspaceId(workspaceId), subscriberId, ...(type ? { source: { type, id } } : {}) };
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
