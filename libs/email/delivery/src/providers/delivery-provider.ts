/** One email to one recipient, as every delivery provider receives it. */
export interface OutgoingMessage {
  /** The id we assign; it becomes the Message-ID header (without angle brackets, e.g. `msg_1@mail.example.com`). */
  messageId: string;
  from: { address: string; name: string };
  /** Exactly one recipient address. */
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post`. */
  headers: Record<string, string>;
  /**
   * Short key/value labels the provider keeps with the message and returns in its events (e.g. `broadcast_id`), where it
   * has such a field: SES email tags, Postmark metadata, SendGrid custom args, Mailgun variables, Resend tags, Brevo's
   * `X-Mailin-custom`. Providers whose tags allow only `[A-Za-z0-9_-]` get other characters replaced by `_`.
   */
  metadata?: Record<string, string>;
}

/**
 * Why a message was not accepted: a stable `code` and the provider's words (secrets never included). The code is one
 * of ours where the meaning is shared (`authentication_failed`, `connection_failed`, `connection_timeout`,
 * `timeout_after_handoff`, `connection_lost_after_handoff`, `invalid_message`), else the provider's own: an SMTP
 * enhanced status code (`5.1.1`), SES's error type (`MessageRejected`), Postmark's ErrorCode (`406`), Resend's error
 * name (`validation_error`), Brevo's code (`invalid_parameter`), or `http_<status>` where the provider has none.
 */
export interface DeliveryFailureReason {
  code: string;
  message: string;
  /** The provider's own status (the SMTP reply code, the HTTP status) when there was one. */
  providerStatus?: number;
}

/**
 * Every send ends in exactly one of these.
 * - `accepted`: the provider took the message; `providerMessageId` is its id for it.
 * - `transient`: not accepted, nothing was handed off or the provider said "later": safe to retry.
 * - `throttled`: the provider is rate limiting; retry after `retryAfterMs` when it said how long.
 * - `permanent`: refused for good; do not retry this message.
 * - `unknown`: the message may or may not have been taken (e.g. the connection dropped after the
 *   whole message was handed over and before the reply). Never retried automatically: a retry could
 *   deliver it twice.
 */
export type DeliveryOutcome =
  | { kind: 'accepted'; providerMessageId: string }
  | { kind: 'transient'; reason: DeliveryFailureReason }
  | { kind: 'throttled'; reason: DeliveryFailureReason; retryAfterMs?: number }
  | { kind: 'permanent'; reason: DeliveryFailureReason }
  | { kind: 'unknown'; reason: DeliveryFailureReason };

export type DeliveryOutcomeKind = DeliveryOutcome['kind'];

/**
 * The result of a credentials/connection check: nothing is sent.
 * `inspection: 'unavailable'` means the credentials were accepted but may not look at the account (e.g. a send-only
 * API key): only a test send can prove they can send.
 */
export type VerifyResult =
  { ok: true; inspection: 'available' | 'unavailable' } | { ok: false; kind: 'transient' | 'permanent'; reason: DeliveryFailureReason };

/** The one interface the seven providers (`custom-smtp`, `amazon-ses`, `postmark`, `sendgrid`, `mailgun`, `resend`, `brevo`) implement. */
export interface DeliveryProvider {
  readonly provider: string;
  /** Sends one message. Never throws for a delivery failure: every failure is an outcome. */
  send(message: OutgoingMessage): Promise<DeliveryOutcome>;
  /** Only where the provider has a batch API; one outcome per message, in the same order. */
  sendBatch?(messages: readonly OutgoingMessage[]): Promise<DeliveryOutcome[]>;
  /** Checks the connection and the credentials without sending anything. */
  verify(): Promise<VerifyResult>;
}
