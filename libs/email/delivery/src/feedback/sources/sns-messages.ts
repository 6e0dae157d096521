import { createVerify, KeyObject, X509Certificate } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { isLoopbackHost } from '@shared/core';
import { optionalText, type Json } from '../payload';

/** An SNS message to an HTTP(S) subscriber whose signature verified. */
export interface SnsMessage {
  Type: 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
  MessageId: string;
  TopicArn: string;
  Message: string;
  SubscribeURL?: string;
}

/** The members each message type signs, in the order they are signed (a Notification's Subject only when present). */
const SIGNED_MEMBERS: Record<SnsMessage['Type'], string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** SignatureVersion 1 is SHA1withRSA, 2 SHA256withRSA. */
const ALGORITHMS: Record<string, string> = { '1': 'RSA-SHA1', '2': 'RSA-SHA256' };

/** The text SNS signs: `name\nvalue\n` for each signed member present, in order. Null when a required member is missing. */
export function snsStringToSign(message: Json): string | null {
  const members = SIGNED_MEMBERS[message.Type as SnsMessage['Type']];
  if (!members) return null;
  let text = '';
  for (const name of members) {
    const value = message[name];
    if (value === undefined && name === 'Subject') continue;
    if (typeof value !== 'string') return null;
    text += `${name}\n${value}\n`;
  }
  return text;
}

/** Where SNS certificates and subscription confirmations live: https on `sns.<region>.amazonaws.com` (`.com.cn` in China). */
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_CERTIFICATE_BYTES = 16 * 1024;
const MAX_CACHED_CERTIFICATES = 32;

export interface SnsOptions {
  /** SNS hosts are trusted (config `ALLOW_NON_LOOPBACK_HOSTS`): outside production nothing is fetched from them. */
  allowSnsHosts?: boolean;
  /** Tests only: certificate and confirmation URLs on a loopback address (http or https) are trusted too. */
  allowLoopbackUrls?: boolean;
}

/** The injection token of SnsOptions (DeliveryFeedbackModule binds the production rules). */
export const SNS_OPTIONS = Symbol('SNS_OPTIONS');

/**
 * Verifies SNS message signatures against the signing certificate, fetched only from an SNS host over https (and
 * cached by URL), and confirms subscriptions through their SubscribeURL under the same host rule.
 */
@Injectable()
export class SnsMessages {
  private readonly certificates = new Map<string, Promise<KeyObject>>();

  constructor(@Inject(SNS_OPTIONS) private readonly options: SnsOptions) {}

  /** The message when it is a well-formed SNS message whose signature verifies; null otherwise. */
  async verify(payload: unknown): Promise<SnsMessage | null> {
    if (typeof payload !== 'object' || payload === null) return null;
    const message = payload as Json;
    const text = snsStringToSign(message);
    const algorithm = ALGORITHMS[String(message.SignatureVersion)];
    const signature = optionalText(message.Signature);
    const certificateUrl = this.trusted(message.SigningCertURL);
    if (text === null || !algorithm || !signature || !certificateUrl) return null;
    let key: KeyObject;
    try {
      key = await this.certificate(certificateUrl);
    } catch {
      return null;
    }
    return createVerify(algorithm).update(text, 'utf8').verify(key, signature, 'base64') ? (message as unknown as SnsMessage) : null;
  }

  /** Confirms a subscription by fetching its SubscribeURL (an SNS ConfirmSubscription link); throws when that fails. */
  async confirm(message: SnsMessage): Promise<void> {
    const url = this.trusted(message.SubscribeURL);
    if (!url || url.searchParams.get('Action') !== 'ConfirmSubscription') throw new Error('The SNS SubscribeURL is not an SNS ConfirmSubscription link');
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    await response.body?.cancel();
    // Not the URL in the message: it holds the subscription's confirmation token.
    if (!response.ok) throw new Error(`SNS refused the subscription confirmation (HTTP ${response.status})`);
  }

  private trusted(value: unknown): URL | null {
    if (typeof value !== 'string') return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (url.username || url.password) return null;
    if (this.options.allowSnsHosts && url.protocol === 'https:' && !url.port && SNS_HOST.test(url.hostname)) return url;
    if (this.options.allowLoopbackUrls && (url.protocol === 'https:' || url.protocol === 'http:') && isLoopbackHost(url.hostname)) return url;
    return null;
  }

  /** The certificate's public key, fetched once per URL; a failed fetch is not kept, so the next message tries again. */
  private certificate(url: URL): Promise<KeyObject> {
    const cached = this.certificates.get(url.href);
    if (cached) return cached;
    if (this.certificates.size >= MAX_CACHED_CERTIFICATES) this.certificates.delete(this.certificates.keys().next().value!);
    const loading = fetchCertificate(url);
    this.certificates.set(url.href, loading);
    loading.catch(() => this.certificates.delete(url.href));
    return loading;
  }
}

async function fetchCertificate(url: URL): Promise<KeyObject> {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`SNS signing certificate: HTTP ${response.status}`);
  const pem = await response.text();
  if (pem.length > MAX_CERTIFICATE_BYTES) throw new Error('SNS signing certificate: too large');
  return new X509Certificate(pem).publicKey;
}
