import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { derivedKey, macMatches, SignedFields, truncatedMac } from '../signed-fields';

/** The message a tracking link belongs to: its workspace and what it is (a broadcast, a sequence email) with its id. */
export interface TrackedMessage {
  workspaceId: WorkspaceId;
  source: { type: string; id: string };
}

/** What a recipient's open pixel and click links name. */
export interface TrackingClaims extends TrackedMessage {
  subscriberId: string;
}

/**
 * How long tracking links work: two years from the send. Nearly every open or click of an email still in an inbox
 * counts, and it stays within the 25 months of events kept by default (ENGAGEMENT_RETENTION_MONTHS), so an event a
 * valid link records is never one the writer would drop as too old. An expired link records nothing and, for a
 * click, does not redirect.
 */
export const TRACKING_TOKEN_TTL_MS = 730 * 86_400_000;

/**
 * Signed per-recipient tracking tokens and per-message link signatures.
 *
 * - The recipient token `t1.<payload>.<mac>` (see SignedFields) names the workspace, the subscriber, the message's
 *   source and an expiry (Unix seconds, base 36). The open pixel carries it alone.
 * - A click link carries the recipient token, the link's signature and the link itself: the signature is a MAC (a key
 *   of its own) over the workspace, the source and the exact URL, so a click redirects only to a link that was in
 *   that message, and a token cannot be re-pointed at another URL. It does not depend on the recipient: a message's
 *   link signatures are computed once, and filling a recipient costs one HMAC for all its links.
 */
export class TrackingTokens {
  private readonly fields: SignedFields;
  private readonly linkKey: Buffer;

  /** `secret` is the configured CURSOR_SECRET; the keys are derived from it for these purposes alone. */
  constructor(
    secret: string,
    private readonly ttlMs = TRACKING_TOKEN_TTL_MS,
  ) {
    this.fields = new SignedFields(secret, 't1', 'tracking-token v1');
    this.linkKey = derivedKey(secret, 'tracking-link v1');
  }

  sign(claims: TrackingClaims, issuedAt: Date): string {
    const expires = Math.floor((issuedAt.getTime() + this.ttlMs) / 1000).toString(36);
    return this.fields.sign([claims.workspaceId, claims.subscriberId, claims.source.type, claims.source.id, expires]);
  }

  /** The claims of a token this key signed that has not expired at `now`; null for anything else. */
  verify(token: unknown, now: Date): TrackingClaims | null {
    const fields = this.fields.verify(token, [5]);
    if (!fields) return null;
    const [workspaceId, subscriberId, type, id, expires] = fields;
    if (!/^[0-9a-z]{1,10}$/.test(expires) || parseInt(expires, 36) * 1000 <= now.getTime()) return null;
    // The signature is ours, so the workspace it names is one we put there when the email was built.
    return { workspaceId: trustedWorkspaceId(workspaceId), subscriberId, source: { type, id } };
  }

  /** The signature of one link of a message (base64url, 22 characters). */
  linkSignature(message: TrackedMessage, url: string): string {
    return this.linkMac(message, url).toString('base64url');
  }

  /** Whether `signature` was made by linkSignature for this message and exactly this URL. */
  linkMatches(message: TrackedMessage, url: string, signature: string): boolean {
    return macMatches(signature, this.linkMac(message, url));
  }

  private linkMac(message: TrackedMessage, url: string): Buffer {
    return truncatedMac(this.linkKey, `${message.workspaceId}~${message.source.type}~${message.source.id}~${url}`);
  }
}

/** The public path of an open pixel; email-api answers it with a transparent GIF. */
export const openPixelPath = (token: string): string => `/o/${token}`;

/** What follows the recipient token in a click link's path: the same for every recipient of a message. */
export const clickSuffix = (signature: string, url: string): string => `/${signature}?u=${encodeURIComponent(url)}`;

/** The public path of a click link; email-api redirects it to `url` once the token and the link's signature check out. */
export const clickPath = (token: string, signature: string, url: string): string => `/c/${token}${clickSuffix(signature, url)}`;
