/**
 * Whether an `opened` event came from automatic fetching (a privacy proxy prefetching images, a security gateway
 * scanning the message) rather than a person. Such opens are stored, flagged, and left out of the human engagement
 * the audience conditions read.
 *
 * Two signals, the user agent first (it names the fetcher), then the timing:
 *
 * - Known user agents. Apple Mail Privacy Protection fetches every image through Apple's proxies with the bare
 *   `Mozilla/5.0` (Mailgun, SendGrid and SocketLabs document it); Yahoo's `YahooMailProxy`; Gmail's prefetch for a
 *   recipient with an open session, which SparkPost documents by its fixed Chrome 42 / Edge 12.246 string; the
 *   security gateways that name themselves (Barracuda, Mimecast, Proofpoint, Cisco IronPort, Symantec MessageLabs,
 *   Forcepoint, Microsoft's SafeLinks when it says so); and HTTP libraries and crawlers that no mail client uses.
 *   `GoogleImageProxy` is NOT flagged: Gmail fetches through it when the person opens the message.
 * - An open less than FAST_OPEN_MS after the delivery, or before it. Gateways that present a stock browser (Microsoft
 *   Defender SafeLinks usually does) and Apple's prefetch fetch as the message lands; a person needs the mailbox to
 *   file it, a notification and a tap.
 *
 * A missing or empty user agent and a missing delivery time are no evidence either way: the open counts as human.
 */

/** The stable codes stored in `email_events.machine_reason`. */
export const MACHINE_OPEN_REASONS = [
  'apple_mail_privacy',
  'yahoo_prefetch',
  'gmail_prefetch',
  'security_scanner',
  'automated_client',
  'opened_before_delivery',
  'opened_at_delivery',
] as const;
export type MachineOpenReason = (typeof MACHINE_OPEN_REASONS)[number];

export type OpenClassification = { machine: true; reason: MachineOpenReason } | { machine: false; reason: null };

export interface OpenToClassify {
  occurredAt: Date;
  /** The fetch's User-Agent header, when known. */
  userAgent?: string | null;
  /** When the opened message was delivered (accepted by the recipient's server), when known. */
  deliveredAt?: Date | null;
}

/**
 * An open within 10 s of its delivery is taken for a machine. Scanners and prefetching proxies fetch as the message
 * is accepted, typically within a second or two; a person rarely opens a message within ten seconds of its arrival.
 * Peers place the line between 3 s (QuickMail's default tracking delay) and 30–60 s (deliverability guides); 10 s errs
 * on the side of counting people, since a real open taken for a machine is lost to the engagement conditions while a
 * prefetch missed here is usually caught by its user agent.
 */
export const FAST_OPEN_MS = 10_000;

const APPLE_MAIL_PRIVACY = /^mozilla\/5\.0$/i;
const GMAIL_PREFETCH = /Chrome\/42\.0\.2311\.135 Safari\/537\.36 Edge\/12\.246/;

/** Case-insensitive patterns, checked in this order; the first that matches names the reason. */
const USER_AGENT_RULES: ReadonlyArray<readonly [RegExp, MachineOpenReason]> = [
  [/YahooMailProxy/i, 'yahoo_prefetch'],
  [GMAIL_PREFETCH, 'gmail_prefetch'],
  [/barracuda|mimecast|proofpoint|urldefense|safelinks|ironport|messagelabs|forcepoint|trend ?micro|fortimail|sophos/i, 'security_scanner'],
  [
    /headlesschrome|phantomjs|python-requests|python-urllib|aiohttp|go-http-client|curl\/|wget\/|libwww-perl|apache-httpclient|^java\/|bot\/|\bbot\b|crawler|spider/i,
    'automated_client',
  ],
];

const human: OpenClassification = { machine: false, reason: null };
const machine = (reason: MachineOpenReason): OpenClassification => ({ machine: true, reason });

export function classifyOpen(open: OpenToClassify): OpenClassification {
  const userAgent = open.userAgent?.trim() ?? '';
  if (APPLE_MAIL_PRIVACY.test(userAgent)) return machine('apple_mail_privacy');
  for (const [pattern, reason] of USER_AGENT_RULES) if (pattern.test(userAgent)) return machine(reason);
  if (open.deliveredAt) {
    const sinceDelivery = open.occurredAt.getTime() - open.deliveredAt.getTime();
    if (sinceDelivery < 0) return machine('opened_before_delivery');
    if (sinceDelivery < FAST_OPEN_MS) return machine('opened_at_delivery');
  }
  return human;
}
