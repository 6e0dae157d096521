import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '@shared/core';

/** A server-rendered page that a link in an email or an API response sends a person to. */
export interface HtmlPage {
  title: string;
  /** The one inline stylesheet, allowed by its hash. */
  style: string;
  /** An optional inline script, allowed by its hash; the page must work without it. */
  script?: string;
  /** Whether the script may send requests back to this server (an upload with a progress bar). */
  connectSelf?: boolean;
  body: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** No other origin and nothing inline but the page's own stylesheet and script; forms post only back here. */
export function pageCsp(page: Pick<HtmlPage, 'style' | 'script' | 'connectSelf'>): string {
  return [
    "default-src 'none'",
    `style-src ${sha256(page.style)}`,
    ...(page.script ? [`script-src ${sha256(page.script)}`] : []),
    ...(page.connectSelf ? ["connect-src 'self'"] : []),
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function renderPage(page: HtmlPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)}</title>
<style>${page.style}</style>
</head>
<body>
<main>
${page.body}
</main>
${page.script ? `<script>${page.script}</script>\n` : ''}</body>
</html>
`;
}

/** Sends the page with its CSP. The token-bearing URL never leaks as a referrer, and the page is never indexed. */
export function sendPage(reply: FastifyReply, status: number, page: HtmlPage): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', pageCsp(page))
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex')
    .send(renderPage(page));
}
