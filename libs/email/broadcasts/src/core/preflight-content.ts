import type { OutgoingMessage } from '@email/delivery';
import type { EmailNode } from '@email/rendering';

/** Gmail shows "[Message clipped]" and hides the rest (the footer with the unsubscribe link too) past about 102 KB of HTML. */
export const GMAIL_CLIP_BYTES = 102 * 1024;

/** A URL in the content that a mail client could not follow, with where it sits in `body_document`. */
export interface ContentProblem {
  path: string;
  url: string;
}

const HOST = /^[A-Za-z0-9.-]+$/;

/** An http(s) URL with a host name that could resolve; mailto: with an address; tel: with digits. */
export function isWellFormedLink(raw: string): boolean {
  const value = raw.trim();
  if (/^mailto:/i.test(value)) return /^mailto:[^@\s]+@[^@\s]+\.[^@\s]+/i.test(value);
  if (/^tel:/i.test(value)) return /^tel:\+?[\d\s().-]{3,}$/i.test(value);
  return isWebUrl(value);
}

function isWebUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return HOST.test(url.hostname) && url.hostname.includes('.') && !url.hostname.startsWith('.') && !url.hostname.endsWith('.');
  } catch {
    return false;
  }
}

/** Every link (marks, buttons, linked images) and image URL of the document that is not well formed. */
export function malformedUrls(document: unknown): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const check = (url: unknown, path: string, valid: (value: string) => boolean) => {
    if (typeof url === 'string' && !valid(url)) problems.push({ path, url });
  };
  const walk = (node: EmailNode, path: string) => {
    check(node.attrs?.href, `${path}.attrs.href`, isWellFormedLink);
    check(node.attrs?.src, `${path}.attrs.src`, isWebUrl);
    check(node.attrs?.backgroundImageUrl, `${path}.attrs.backgroundImageUrl`, isWebUrl);
    node.marks?.forEach((mark, i) => mark.type === 'link' && check(mark.attrs?.href, `${path}.marks[${i}].attrs.href`, isWellFormedLink));
    node.content?.forEach((child, i) => walk(child, `${path}.content[${i}]`));
  };
  walk(document as EmailNode, 'body_document');
  return problems;
}

/** What a built message lacks of what every marketing email must carry: the footer's unsubscribe link in both parts, and the headers. */
export function missingUnsubscribeParts(message: OutgoingMessage, unsubscribeUrl: string): string[] {
  return [
    ...(message.html.includes(unsubscribeUrl.replace(/&/g, '&amp;')) ? [] : ['the unsubscribe link in the HTML part']),
    ...(message.text.includes(unsubscribeUrl) ? [] : ['the unsubscribe link in the text part']),
    ...(message.headers['List-Unsubscribe'] ? [] : ['the List-Unsubscribe header']),
    ...(message.headers['List-Unsubscribe-Post'] ? [] : ['the List-Unsubscribe-Post header']),
  ];
}
