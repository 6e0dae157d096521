import { escapeHtml } from '@shared/core';

/** What every marketing email's footer shows: the recipient's own unsubscribe link and the sender's postal address. */
export interface FooterValues {
  /** The recipient's signed unsubscribe URL (the same one as in the List-Unsubscribe header). */
  unsubscribeUrl: string;
  /** The workspace's postal address on one line (see formatPostalAddress). */
  postalAddress: string;
}

/** A workspace's name and postal address fields, as the workspace record holds them (each may be missing). */
export interface PostalAddressParts {
  name?: string | null;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  postal_code?: string | null;
  country?: string | null;
}

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

/** `Acme, 1 Main St, Springfield, IL 62701, US`: the parts that are set, line breaks flattened. */
export function formatPostalAddress(parts: PostalAddressParts): string {
  const region = [parts.state, parts.postal_code].filter(present).join(' ');
  return [parts.name, parts.address, parts.city, region, parts.country]
    .filter(present)
    .map((part) => part.trim().replace(/\s*[\r\n]+\s*/g, ', '))
    .join(', ');
}

const FOOTER_LINK_STYLE = 'color:#57606a;text-decoration:underline';
const PIXEL_STYLE = 'display:block;width:1px;height:1px;border:0;margin:0;padding:0';

export function footerHtml(footer: FooterValues | undefined): string {
  if (!footer) return '';
  return (
    `<p style="margin:16px 0 4px 0">Don&#39;t want these emails? <a href="${escapeHtml(footer.unsubscribeUrl)}" target="_blank" style="${FOOTER_LINK_STYLE}">Unsubscribe</a></p>` +
    (footer.postalAddress ? `<p style="margin:0 0 16px 0">${escapeHtml(footer.postalAddress)}</p>` : '')
  );
}

export function footerText(footer: FooterValues | undefined): string {
  if (!footer) return '';
  return `\n---\nDon't want these emails? Unsubscribe: ${footer.unsubscribeUrl}\n${footer.postalAddress ? `${footer.postalAddress}\n` : ''}`;
}

export function openPixelHtml(url: string | undefined): string {
  return url ? `<img src="${escapeHtml(url)}" width="1" height="1" alt="" style="${PIXEL_STYLE}">` : '';
}
