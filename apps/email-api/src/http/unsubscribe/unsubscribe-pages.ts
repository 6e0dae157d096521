import { escapeHtml } from '@shared/core';
import { HtmlPage } from '@shared/browser-session';

/** `jane.doe@example.com` → `j•••@e•••.com`: enough for the recipient to recognise, little for whoever holds the link. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const maskedDomain = dot > 0 ? `${domain[0]}•••${domain.slice(dot)}` : '•••';
  return `${local[0]}•••@${maskedDomain}`;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:28rem;margin:12vh auto 0;padding:2rem 1.5rem;background:#fff;border:1px solid #d0d7de;border-radius:12px}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 .75rem;overflow-wrap:anywhere}
p{margin:0 0 1.25rem;color:#424a53;overflow-wrap:anywhere}
button{display:block;width:100%;padding:.8rem 1rem;font:inherit;font-weight:600;color:#fff;background:#cf222e;border:0;border-radius:8px;cursor:pointer}
button:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.muted{font-size:.875rem;color:#656d76;margin:1rem 0 0}
@media (max-width:30rem){main{margin:0;min-height:100vh;border:0;border-radius:0}}
`.trim();

const page = (title: string, body: string): HtmlPage => ({ title, style: STYLE, body });

/** The confirm state: a plain form (no JavaScript) posting the same body a one-click mail client sends. */
export function confirmPage(workspaceName: string, email: string): HtmlPage {
  const name = escapeHtml(workspaceName);
  return page(
    `Unsubscribe from ${workspaceName}`,
    `<h1>Unsubscribe ${escapeHtml(maskEmail(email))} from ${name}?</h1>
<p>You will no longer receive marketing emails from ${name}.</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>
<p class="muted">If you did not mean to open this page, simply close it: nothing changes.</p>`,
  );
}

/** The done state, for a first unsubscribe and for any repeat. */
export function donePage(workspaceName: string, email: string): HtmlPage {
  const name = escapeHtml(workspaceName);
  return page(
    `Unsubscribed from ${workspaceName}`,
    `<h1>You are unsubscribed</h1>
<p>${escapeHtml(maskEmail(email))} will no longer receive marketing emails from ${name}.</p>
<p class="muted">You can close this page.</p>`,
  );
}

/** Any link we did not sign, or whose recipient no longer exists: no detail. */
export function invalidPage(): HtmlPage {
  return page(
    'Link not valid',
    `<h1>This link is not valid</h1>
<p>The unsubscribe link may have been copied incompletely. Use the unsubscribe link in the most recent email you received.</p>`,
  );
}
