import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '@shared/core';

/**
 * A server-rendered page of either service: the pages email links lead to (connection setup, import upload,
 * unsubscribe) and the browser-session pages (sign-in, consent, connected apps). Each brings its own stylesheet; the
 * document, the CSP and the headers are this one shell's.
 */
export interface HtmlPage {
  title: string;
  /** The one inline stylesheet, allowed by its hash. */
  style: string;
  /** Trusted HTML inside `<main>`: interpolate every value through `escapeHtml`. */
  body: string;
  /** Trusted HTML before `<main>`. */
  header?: string;
  mainClass?: string;
  /** An optional inline script, allowed by its hash; the page must work without it. */
  script?: string;
  /** Whether the script may send requests back to this server (an upload with a progress bar). */
  connectSelf?: boolean;
  /**
   * Origins a form post may end up at besides this one: browsers apply `form-action` to the redirect that follows a
   * post, so a consent form that redirects back to an app names the app's redirect URI origin here.
   */
  formTargets?: readonly string[];
}

const sha256Source = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** No other origin, nothing inline but the page's own stylesheet and script, forms post only back here (or the named targets), never framed. */
export function pageCsp(page: Pick<HtmlPage, 'style' | 'script' | 'connectSelf' | 'formTargets'>): string {
  return [
    "default-src 'none'",
    `style-src ${sha256Source(page.style)}`,
    ...(page.script ? [`script-src ${sha256Source(page.script)}`] : []),
    ...(page.connectSelf ? ["connect-src 'self'"] : []),
    ["form-action 'self'", ...(page.formTargets ?? []).map((target) => new URL(target).origin)].join(' '),
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
${page.header ? `${page.header}\n` : ''}<main${page.mainClass ? ` class="${page.mainClass}"` : ''}>
${page.body}
</main>
${page.script ? `<script>${page.script}</script>\n` : ''}</body>
</html>
`;
}

/** Sends the page with its CSP. Never cached or indexed; a token-bearing URL never leaks as a referrer. */
export function sendPage(reply: FastifyReply, status: number, page: HtmlPage): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', pageCsp(page))
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex')
    .send(renderPage(page));
}

/** A server-rendered page of a signed-in (or signing-in) browser flow. */
export interface SessionPage {
  title: string;
  /** Shown small above the card: the service's product name. */
  product: string;
  /** Trusted HTML: interpolate every value through `escapeHtml`. */
  body: string;
  /** A wider card, for tables. */
  wide?: boolean;
  /** See HtmlPage's. */
  formTargets?: string[];
}

/** The one stylesheet of every session page: no web fonts, no images, nothing from another origin. */
export const SESSION_PAGE_STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa}
.product{max-width:30rem;margin:7vh auto .75rem;padding:0 .25rem;font-weight:600;color:#59636e;letter-spacing:.01em}
main{max-width:30rem;margin:0 auto 6vh;padding:2rem 1.75rem;background:#fff;border:1px solid #d0d7de;border-radius:12px;box-shadow:0 1px 3px #1f232810}
main.wide{max-width:44rem}
.product.wide{max-width:44rem}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 .5rem;overflow-wrap:anywhere}
p{margin:0 0 1rem;color:#424a53;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:1rem 0 .3rem}
input[type=email],input[type=password],select{display:block;width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #8c959f;border-radius:6px;background:#fff;color:inherit}
input:focus,select:focus{outline:3px solid #0969da55;border-color:#0969da}
button{font:inherit;font-weight:600;border-radius:8px;cursor:pointer;padding:.7rem 1rem;border:1px solid transparent;white-space:nowrap}
button:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.primary{display:block;width:100%;margin-top:1.5rem;color:#fff;background:#1f883d}
.primary:hover{background:#1a7f37}
.secondary{color:#1f2328;background:#f6f8fa;border-color:#d0d7de}
.danger{color:#cf222e;background:#fff;border-color:#d0d7de;padding:.4rem .8rem;font-size:.9rem}
.danger:hover{background:#cf222e;color:#fff}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
.actions button{flex:1;margin:0}
.alert{padding:.85rem 1rem;border-radius:8px;margin:0 0 1.25rem;border:1px solid;background:#ffebe9;border-color:#ff818266;color:#82071e}
.notice{padding:.85rem 1rem;border-radius:8px;margin:0 0 1.25rem;border:1px solid #4ac26b66;background:#dafbe1;color:#116329}
.client{display:flex;align-items:center;gap:.75rem;padding:.85rem 1rem;background:#f6f8fa;border-radius:8px;margin:0 0 1.25rem}
.badge{flex:none;display:grid;place-items:center;width:2.5rem;height:2.5rem;border-radius:8px;background:#0969da;color:#fff;font-weight:700;font-size:1.1rem}
.client strong{display:block;overflow-wrap:anywhere}
.client span{font-size:.85rem;color:#59636e;overflow-wrap:anywhere}
ul.scopes{list-style:none;margin:.5rem 0 0;padding:0;border:1px solid #d0d7de;border-radius:8px}
ul.scopes li{display:flex;justify-content:space-between;align-items:center;gap:.75rem;padding:.6rem .85rem;border-top:1px solid #d0d7de}
ul.scopes li:first-child{border-top:0}
ul.scopes li strong{display:block;font-weight:600}
ul.scopes li span{font-size:.85rem;color:#59636e}
.write{flex:none;padding:.05rem .5rem;font-size:.75rem;font-weight:600;color:#9a6700;background:#fff8c5;border:1px solid #d4a72c66;border-radius:999px;vertical-align:.1rem}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th{text-align:left;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:#59636e;padding:.5rem .5rem;border-bottom:1px solid #d0d7de}
td{padding:.75rem .5rem;border-bottom:1px solid #eaeef2;vertical-align:top;overflow-wrap:anywhere}
td form{margin:0}
td.nowrap{white-space:nowrap}
.muted{font-size:.85rem;color:#59636e;margin:1.25rem 0 0}
.empty{padding:1.5rem;text-align:center;color:#59636e;background:#f6f8fa;border-radius:8px}
.bar{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;margin-bottom:1rem}
.bar form{margin:0}
.link{background:none;border:0;padding:0;color:#0969da;font-weight:400}
.lead{margin:1.25rem 0 0}
.sub{font-size:.85rem;color:#59636e}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
a{color:#0969da}
@media (max-width:36rem){.product{margin:1rem 1.75rem .5rem;padding:0}main{border-radius:0;border-left:0;border-right:0}}
`.trim();

/** A session page in the shell: the product's name above the card, the session stylesheet. */
export function sessionHtmlPage(page: SessionPage): HtmlPage {
  const wide = page.wide ? ' wide' : '';
  return {
    title: `${page.title} · ${page.product}`,
    style: SESSION_PAGE_STYLE,
    header: `<div class="product${wide}">${escapeHtml(page.product)}</div>`,
    mainClass: `card${wide}`,
    body: page.body,
    formTargets: page.formTargets,
  };
}

export const sendSessionPage = (reply: FastifyReply, status: number, page: SessionPage): FastifyReply => sendPage(reply, status, sessionHtmlPage(page));

/** The hidden field every form post of a session page carries. */
export const csrfField = (token: string) => `<input type="hidden" name="csrf_token" value="${escapeHtml(token)}">`;
