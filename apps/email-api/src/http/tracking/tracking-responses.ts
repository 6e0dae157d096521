import { escapeHtml } from '@shared/core';
import type { FastifyReply } from 'fastify';
import { sendPage } from '@shared/browser-session';

/** The classic 43-byte transparent 1×1 GIF. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** No cache anywhere may keep the pixel: each fetch is an open. */
const NO_CACHE = { 'cache-control': 'no-store, no-cache, must-revalidate, private, max-age=0', pragma: 'no-cache', expires: '0' };

/** `status` is 200, or 503 when the open could not be recorded; the image is the same either way (mail clients show it). */
export function sendPixel(reply: FastifyReply, status: number): FastifyReply {
  return reply
    .code(status)
    .headers({ ...NO_CACHE, 'content-type': 'image/gif', 'x-content-type-options': 'nosniff' })
    .send(PIXEL_GIF);
}

export function sendRedirect(reply: FastifyReply, location: string): FastifyReply {
  return reply
    .code(302)
    .headers({ ...NO_CACHE, location })
    .send();
}

const STYLE = `
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:28rem;margin:12vh auto 0;padding:2rem 1.5rem;background:#fff;border:1px solid #d0d7de;border-radius:12px}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 .75rem}
p{margin:0;color:#424a53;overflow-wrap:anywhere}
`.trim();

/** A click link we did not sign, that expired or that names another URL: no redirect and no detail. */
export function sendInvalidLink(reply: FastifyReply): FastifyReply {
  return sendPage(reply, 404, {
    title: 'Link not valid',
    style: STYLE,
    body: '<h1>This link is not valid</h1>\n<p>It may have been copied incompletely, or it has expired.</p>',
  });
}

/**
 * A valid click whose recording failed: no redirect (a 302 means "recorded"), but the person still reaches the link,
 * which the signature has shown was in the message.
 */
export function sendContinue(reply: FastifyReply, location: string): FastifyReply {
  const href = escapeHtml(location);
  return sendPage(reply, 503, {
    title: 'Continue',
    style: STYLE,
    body: `<h1>Continue to your link</h1>\n<p><a href="${href}" rel="noreferrer">${href}</a></p>`,
  });
}
