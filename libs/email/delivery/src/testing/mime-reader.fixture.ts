/** A MIME message as a fake (SES raw content) reads it: headers by name (decoded), the text and the html part. */
export interface MimeMessage {
  headers: Record<string, string>;
  text: string;
  html: string;
}

/** Enough of MIME for what nodemailer composes: headers with encoded words, one level of multipart, QP and base64. */
export function readMime(raw: string): MimeMessage {
  const { headers, body } = splitPart(raw);
  const parts = partsOf(headers, body);
  const find = (type: string) => parts.find((part) => (part.headers['content-type'] ?? 'text/plain').toLowerCase().startsWith(type));
  const named = Object.fromEntries(Object.entries(headers).map(([, { name, value }]) => [name, decodeWords(value)]));
  const text = find('text/plain');
  const html = find('text/html');
  return { headers: named, text: text ? decodeBody(text) : '', html: html ? decodeBody(html) : '' };
}

type Headers = Record<string, { name: string; value: string }>;
interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitPart(raw: string): { headers: Headers; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const headers: Headers = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
  }
  return { headers, body: end === -1 ? '' : raw.slice(end + 4) };
}

function partsOf(headers: Headers, body: string): Part[] {
  const plain = (h: Headers) => Object.fromEntries(Object.entries(h).map(([key, { value }]) => [key, value]));
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type']?.value ?? '')?.[1];
  if (!boundary) return [{ headers: plain(headers), body }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .map((chunk) => {
      const part = splitPart(chunk.replace(/^\r\n/, ''));
      return { headers: plain(part.headers), body: part.body.replace(/\r\n$/, '') };
    });
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return quotedPrintable(part.body.replace(/=\r\n/g, ''));
  return part.body;
}

const quotedPrintable = (text: string) =>
  Buffer.from(
    text.replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`); the space between two of them is not text. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : quotedPrintable(text.replace(/_/g, ' ')),
    );
}
