import { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { isLoopbackHost } from '@shared/core';
import type { DeliveryFailureReason, DeliveryOutcome, DeliveryProvider, OutgoingMessage, VerifyResult } from './delivery-provider';
import { composeMime } from './mime';
import { ProviderSettingsError } from './provider-settings-error';

/**
 * How the connection is secured:
 * - `tls`: TLS from the first byte (implicit TLS, usually port 465);
 * - `starttls`: plain connect, then STARTTLS is required (usually port 587): a server that does not offer it fails;
 * - `none`: never upgrade, even when the server offers STARTTLS (credentials travel in clear: local relays only).
 */
export const SMTP_SECURE_MODES = ['tls', 'starttls', 'none'] as const;
export type SmtpSecureMode = (typeof SMTP_SECURE_MODES)[number];

/** The connection's settings, named as the setup form and `provider_config` name them. */
export interface CustomSmtpConfig {
  host: string;
  port: number;
  secure_mode: SmtpSecureMode;
  username?: string;
  password?: string;
}

export interface CustomSmtpOptions {
  /**
   * Off by default: the provider refuses any host that is not loopback (`localhost`, 127.0.0.0/8, `::1`), so a test or
   * a default configuration can never deliver anywhere else. Production wiring turns it on explicitly.
   */
  allowNonLoopbackHosts?: boolean;
  /** Time to open the TCP/TLS connection (default 5 s). */
  connectionTimeoutMs?: number;
  /** Time to wait for the server's greeting (default 5 s). */
  greetingTimeoutMs?: number;
  /** Longest silence from the server during the session (default 15 s). */
  socketTimeoutMs?: number;
  /** Extra TLS options (e.g. a test CA); certificates are verified unless told otherwise here. */
  tls?: { rejectUnauthorized?: boolean; ca?: string | Buffer };
  /**
   * Pooled: up to this many SMTP sessions stay open and each carries message after message (a send waits for a free
   * one). Unset: one session per message.
   */
  poolSize?: number;
}

export const CUSTOM_SMTP_DEFAULT_TIMEOUTS = { connectionTimeoutMs: 5_000, greetingTimeoutMs: 5_000, socketTimeoutMs: 15_000 };

type SmtpError = Error & { code?: string; responseCode?: number; response?: string; command?: string; rejectedErrors?: SmtpError[] };

const THROTTLING_TEXT = /\b(rate|throttl\w*|too many|slow down)\b/i;

/** The enhanced status code (RFC 3463) of a reply such as `550 5.1.1 User unknown`, if it has one. */
function enhancedCode(response: string | undefined): string | undefined {
  return response ? /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(response.trim())?.[1] : undefined;
}

/** A server's hint of when to come back ("retry in 30 seconds", "try again after 2 minutes"), in ms. */
function retryAfterMs(response: string): number | undefined {
  const match = /(?:retry|try again)\D{0,20}?(\d+)\s*(seconds?|secs?|s|minutes?|mins?|m)?\b/i.exec(response);
  if (!match) return undefined;
  const unit = (match[2] ?? 's').toLowerCase();
  return Number(match[1]) * (unit.startsWith('m') ? 60_000 : 1_000);
}

/**
 * Classifies an SMTP reply that was not an acceptance. 4xx replies that speak of a rate (e.g. SES's
 * `454 Throttling failure: Maximum sending rate exceeded`, `421 4.7.0 ... rate limited`) are `throttled`; other 4xx
 * (421/450/451/452...) are `transient`; 5xx are `permanent`.
 */
export function classifySmtpReply(responseCode: number, response: string): Exclude<DeliveryOutcome, { kind: 'accepted' | 'unknown' }> {
  const text = response.trim();
  const reason: DeliveryFailureReason = { code: enhancedCode(text) ?? String(responseCode), message: text, providerStatus: responseCode };
  if (responseCode >= 500) return { kind: 'permanent', reason };
  if (responseCode >= 400 && THROTTLING_TEXT.test(text)) {
    const after = retryAfterMs(text);
    return after === undefined ? { kind: 'throttled', reason } : { kind: 'throttled', reason, retryAfterMs: after };
  }
  return { kind: 'transient', reason };
}

/** A connection or authentication failure, before anything was handed off. */
function classifyBeforeHandOff(err: SmtpError): Exclude<DeliveryOutcome, { kind: 'accepted' | 'unknown' }> {
  const replied = replyOf(err);
  if (err.code === 'EAUTH' || err.code === 'ENOAUTH') {
    // 454 4.7.0 "temporary authentication failure" is worth another try; 535 and the rest are bad credentials.
    if (replied && replied.code >= 400 && replied.code < 500) return classifySmtpReply(replied.code, replied.text);
    return {
      kind: 'permanent',
      reason: { code: 'authentication_failed', message: replied?.text ?? err.message, providerStatus: replied?.code },
    };
  }
  if (err.code === 'ETLS') return { kind: 'permanent', reason: { code: 'tls_failed', message: err.message } };
  if (replied) return classifySmtpReply(replied.code, replied.text);
  const code = err.code === 'ETIMEDOUT' ? 'connection_timeout' : 'connection_failed';
  return { kind: 'transient', reason: { code, message: err.message } };
}

function replyOf(err: SmtpError): { code: number; text: string } | undefined {
  const source = err.responseCode ? err : err.rejectedErrors?.find((rejected) => rejected.responseCode);
  return source?.responseCode ? { code: source.responseCode, text: source.response ?? source.message } : undefined;
}

/**
 * `custom-smtp`: any SMTP server, through nodemailer's SMTP client: one session per send, or a pool of sessions kept
 * open (`poolSize`). Not nodemailer's own pool transport: it retries and reports on its own, and a broadcast must know
 * whether a failed message was handed off (`unknown`) or not (`transient`), which only the session's DATA stage tells.
 */
export class CustomSmtpProvider implements DeliveryProvider {
  readonly provider = 'custom-smtp';
  private readonly pool?: SessionPool;

  constructor(
    private readonly config: CustomSmtpConfig,
    private readonly options: CustomSmtpOptions = {},
  ) {
    if (!SMTP_SECURE_MODES.includes(config.secure_mode)) {
      throw new Error(`custom-smtp: secure_mode must be one of ${SMTP_SECURE_MODES.join(', ')}`);
    }
    if (!options.allowNonLoopbackHosts && !isLoopbackHost(config.host)) {
      throw new ProviderSettingsError('host', 'custom-smtp: refusing a non-loopback host; pass allowNonLoopbackHosts to allow it');
    }
    if (options.poolSize) this.pool = new SessionPool(options.poolSize, () => this.open());
  }

  async verify(): Promise<VerifyResult> {
    const session = this.open();
    try {
      await session.connect();
      await session.login();
      return { ok: true, inspection: 'available' };
    } catch (err) {
      const outcome = classifyBeforeHandOff(err as SmtpError);
      return { ok: false, kind: outcome.kind === 'permanent' ? 'permanent' : 'transient', reason: outcome.reason };
    } finally {
      session.end();
    }
  }

  async send(message: OutgoingMessage): Promise<DeliveryOutcome> {
    let raw: Buffer;
    try {
      raw = await composeMime(message);
    } catch (err) {
      return { kind: 'permanent', reason: { code: 'invalid_message', message: (err as Error).message } };
    }
    if (!this.pool) {
      const session = this.open();
      try {
        return await this.transmit(session, true, raw, message);
      } finally {
        session.end();
      }
    }
    let lease = await this.pool.acquire();
    let outcome = await this.transmit(lease.session, lease.fresh, raw, message);
    // A kept-open session the server closed in the meantime fails before anything was handed off: one fresh try.
    if (!lease.fresh && outcome.kind === 'transient' && outcome.reason.code === 'connection_lost') {
      this.pool.release(lease.session, false);
      lease = await this.pool.acquire(true);
      outcome = await this.transmit(lease.session, lease.fresh, raw, message);
    }
    this.pool.release(lease.session, outcome.kind === 'accepted');
    return outcome;
  }

  /** Ends the pooled sessions, idle ones now and busy ones when their send is done; a later send uses a session of its own. */
  close(): void {
    this.pool?.drain();
  }

  /** One message over `session`, opening it first when `fresh`. */
  private async transmit(session: SmtpSession, fresh: boolean, raw: Buffer, message: OutgoingMessage): Promise<DeliveryOutcome> {
    if (fresh) {
      try {
        await session.connect();
        await session.login();
      } catch (err) {
        return classifyBeforeHandOff(err as SmtpError);
      }
    }
    // The body stream is only read once the server has answered DATA with 354: from then on a silent failure is ambiguous.
    let handedOff = false;
    const body = new Readable({
      read() {
        handedOff = true;
        this.push(raw);
        this.push(null);
      },
    });
    try {
      const info = await session.send({ from: message.from.address, to: [message.to] }, body);
      return { kind: 'accepted', providerMessageId: info.serverMessageId ?? message.messageId };
    } catch (err) {
      const failure = err as SmtpError;
      const replied = replyOf(failure);
      if (replied && failure.code !== 'ECONNECTION' && failure.code !== 'ETIMEDOUT') return classifySmtpReply(replied.code, replied.text);
      if (handedOff) {
        return {
          kind: 'unknown',
          reason: { code: failure.code === 'ETIMEDOUT' ? 'timeout_after_handoff' : 'connection_lost_after_handoff', message: failure.message },
        };
      }
      if (replied) return classifySmtpReply(replied.code, replied.text);
      return { kind: 'transient', reason: { code: 'connection_lost', message: failure.message } };
    }
  }

  private open(): SmtpSession {
    const { config, options } = this;
    const connection = new SMTPConnection({
      host: config.host,
      port: config.port,
      secure: config.secure_mode === 'tls',
      requireTLS: config.secure_mode === 'starttls',
      ignoreTLS: config.secure_mode === 'none',
      connectionTimeout: options.connectionTimeoutMs ?? CUSTOM_SMTP_DEFAULT_TIMEOUTS.connectionTimeoutMs,
      greetingTimeout: options.greetingTimeoutMs ?? CUSTOM_SMTP_DEFAULT_TIMEOUTS.greetingTimeoutMs,
      socketTimeout: options.socketTimeoutMs ?? CUSTOM_SMTP_DEFAULT_TIMEOUTS.socketTimeoutMs,
      socketCloseTimeout: 0,
      tls: options.tls,
      logger: false,
    });
    return new SmtpSession(connection, config);
  }
}

/** Up to `size` sessions; an idle one is reused while the server keeps it open. */
class SessionPool {
  private readonly idle: SmtpSession[] = [];
  private readonly waiting: Array<() => void> = [];
  private opened = 0;
  private drained = false;

  constructor(
    private readonly size: number,
    private readonly open: () => SmtpSession,
  ) {}

  /** A free session (`fresh`: not connected yet), waiting for one when all are busy; `fresh` forces a new one. */
  async acquire(fresh = false): Promise<{ session: SmtpSession; fresh: boolean }> {
    for (;;) {
      const session = fresh ? undefined : this.idle.pop();
      if (session?.usable) return { session, fresh: false };
      if (session) {
        this.discard(session);
        continue;
      }
      if (this.opened < this.size) {
        this.opened++;
        return { session: this.open(), fresh: true };
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Back to the pool after a send; `keep` false (a failed send) ends it. */
  release(session: SmtpSession, keep: boolean): void {
    if (keep && session.usable && !this.drained) this.idle.push(session);
    else this.discard(session);
    this.waiting.shift()?.();
  }

  drain(): void {
    this.drained = true;
    for (const session of this.idle.splice(0)) this.discard(session);
  }

  private discard(session: SmtpSession): void {
    session.end();
    this.opened--;
  }
}

/** Promises over nodemailer's callback-and-event SMTP client: each step settles on its callback, an `error` event or the connection's end. */
class SmtpSession {
  private failure: SmtpError | undefined;
  private ended = false;
  private waiting: ((err: SmtpError) => void) | undefined;

  constructor(
    private readonly connection: SMTPConnection,
    private readonly config: CustomSmtpConfig,
  ) {
    connection.on('error', (err: SmtpError) => this.fail(err));
    connection.on('end', () => {
      this.ended = true;
      // nodemailer ends the connection before it calls back with the reason (e.g. a 421): let that reason win.
      setImmediate(() => this.fail(Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' })));
    });
  }

  /** Connected, and neither ended nor broken: it can carry another message. */
  get usable(): boolean {
    return !this.ended && !this.failure;
  }

  connect(): Promise<void> {
    return this.step<void>((done) => this.connection.connect((err) => done(err ?? null)));
  }

  async login(): Promise<void> {
    if (!this.config.username) return;
    await this.step<boolean | undefined>((done) =>
      this.connection.login({ user: this.config.username ?? '', pass: this.config.password ?? '' }, (err, ok) => done(err, ok)),
    );
  }

  send(envelope: { from: string; to: string[] }, body: Readable) {
    return this.step<{ serverMessageId?: string }>((done) => this.connection.send(envelope, body, (err, info) => done(err, info)));
  }

  end(): void {
    this.waiting = undefined;
    if (this.ended) return;
    this.ended = true;
    if (this.connection.stage === 'connected') this.connection.quit();
    this.connection.close();
  }

  private fail(err: SmtpError): void {
    this.failure ??= err;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(err);
  }

  private step<T>(run: (done: (err: Error | null | undefined, value?: T) => void) => void): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (err: Error | null | undefined, value?: T) => {
        if (settled) return;
        settled = true;
        this.waiting = undefined;
        if (err) reject(err);
        else resolve(value as T);
      };
      this.waiting = (err) => settle(err);
      run(settle);
    });
  }
}
