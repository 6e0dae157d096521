import type { DeliveryOutcome, OutgoingMessage } from '../delivery-provider';

/** `<id@domain>`, whether or not the message's id already has the brackets. */
export const messageIdHeader = (message: OutgoingMessage): string => `<${message.messageId.replace(/^<|>$/g, '')}>`;

/** The extra headers plus our Message-ID, as the APIs that take a header map want them. */
export const headersWithMessageId = (message: OutgoingMessage, name = 'Message-ID'): Record<string, string> => ({
  ...message.headers,
  [name]: messageIdHeader(message),
});

/** `"Name" <address>` (the name quoted, so commas and the like stay in it), or the bare address. */
export function formatAddress(from: OutgoingMessage['from']): string {
  const name = from.name.trim();
  return name ? `"${name.replace(/["\\]/g, '\\$&')}" <${from.address}>` : from.address;
}

const LINE_BREAK = /[\r\n]/;

/**
 * What no provider can send, refused before any request: a line break in a header, the subject or an address (header
 * injection), a missing sender, or a recipient that is not exactly one bare address (a list would show everyone to everyone).
 */
export function invalidMessage(message: OutgoingMessage): Extract<DeliveryOutcome, { kind: 'permanent' }> | undefined {
  const problem =
    (!message.to.trim() && 'the recipient is empty') ||
    (/[,;<>\s]/.test(message.to.trim()) && 'the recipient must be one bare address') ||
    (!message.from.address.trim() && 'the sender address is empty') ||
    ([message.to, message.from.address, message.from.name, message.subject].some((value) => LINE_BREAK.test(value)) &&
      'a line break in an address or the subject') ||
    (Object.entries({ ...message.headers, ...message.metadata }).some(([name, value]) => LINE_BREAK.test(name) || LINE_BREAK.test(value)) &&
      'a line break in a header or metadata');
  return problem ? { kind: 'permanent', reason: { code: 'invalid_message', message: `Not sent: ${problem}` } } : undefined;
}

/** Metadata as tags that allow only `[A-Za-z0-9_-]` and 256 characters (SES, Resend). */
export const asTags = (metadata: Record<string, string> | undefined): Array<{ name: string; value: string }> =>
  Object.entries(metadata ?? {}).map(([name, value]) => ({ name: tagText(name), value: tagText(value) }));

const tagText = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 256) || '_';

/** A parsed JSON body as an object, or an empty one when it is not JSON or not an object. */
export const jsonObject = (body: string): Record<string, unknown> => asObject(parseJson(body));

/** A value as an object, or an empty one when it is not an object. */
export const asObject = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export const stringField = (object: Record<string, unknown>, key: string): string | undefined => {
  const value = object[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
};

/** A short description of a body that was not the JSON the provider documents (an HTML error page from a proxy, say). */
export const bodyText = (body: string, status: number): string =>
  body
    .replace(/<[^>]*>/g, ' ')
    .trim()
    .slice(0, 200) || `HTTP ${status}`;
