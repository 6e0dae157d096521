import { csrfField, SessionPage } from '@shared/browser-session';
import { escapeHtml } from '@shared/core';
import { FORMS_OAUTH } from '@forms/oauth';
import type { ConnectionView, OwnerWorkspace, ScopeWords } from '@forms/oauth';

const PRODUCT = 'Postline Forms';
export const SIGN_IN_PATH = '/account/sign-in';
export const SIGN_OUT_PATH = '/account/sign-out';
export const CONNECTED_APPS_PATH = FORMS_OAUTH.connectedAppsPath;

const alert = (message: string | undefined) => (message ? `<div class="alert" role="alert">${escapeHtml(message)}</div>` : '');
const ROLE_WORDS: Record<string, string> = { owner: 'owner', editor: 'editor', viewer: 'viewer (read only)' };

export function signInPage(input: { csrfToken: string; returnTo: string; email?: string; error?: string }): SessionPage {
  return {
    title: 'Sign in',
    product: PRODUCT,
    body: `<h1>Sign in to Postline Forms</h1>
<p>Sign in to connect apps and agents to your forms, and to manage the ones you connected.</p>
${alert(input.error)}<form method="post" action="${SIGN_IN_PATH}">
${csrfField(input.csrfToken)}
<input type="hidden" name="return_to" value="${escapeHtml(input.returnTo)}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"${input.email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${input.email ? ' autofocus' : ''}>
<button class="primary" type="submit">Sign in</button>
</form>
<p class="muted">No password yet? An administrator sets it for your account.</p>`,
  };
}

export interface ConsentView {
  csrfToken: string;
  clientName: string;
  redirectUri: string;
  scopes: ScopeWords[];
  workspaces: OwnerWorkspace[];
  ownerEmail: string;
  /** The authorization request's parameters, posted back with the decision. */
  params: Record<string, string>;
  error?: string;
}

/** A forms grant is the account's: the app acts as the person in every workspace they belong to, with their role there. */
export function consentPage(view: ConsentView): SessionPage {
  const host = new URL(view.redirectUri).host;
  const initial = view.clientName.trim().charAt(0).toUpperCase() || '?';
  const hidden = Object.entries(view.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const workspaces = view.workspaces
    .map((w) => `<li><div><strong>${escapeHtml(w.name)}</strong><span>Your role: ${escapeHtml(ROLE_WORDS[w.role] ?? w.role)}</span></div></li>`)
    .join('\n');
  return {
    title: `Allow ${view.clientName}`,
    product: PRODUCT,
    formTargets: [view.redirectUri],
    body: `<h1>Allow ${escapeHtml(view.clientName)} to use your forms?</h1>
${alert(view.error)}<div class="client"><div class="badge" aria-hidden="true">${escapeHtml(initial)}</div><div><strong>${escapeHtml(view.clientName)}</strong><span>Returns to ${escapeHtml(host)}</span></div></div>
<form method="post" action="/oauth/authorize">
${csrfField(view.csrfToken)}
${hidden}
<p class="lead">It will act as you, and will be able to:</p>
<ul class="scopes">
${view.scopes.map((s) => `<li><div><strong>${escapeHtml(s.text)}</strong><span>${escapeHtml(s.scope)}</span></div>${s.changes ? '<span class="write">Changes data</span>' : ''}</li>`).join('\n')}
</ul>
<p class="lead">In the workspaces you belong to, as far as your role there allows:</p>
<ul class="scopes">
${workspaces}
</ul>
<p class="muted">Workspaces you join later are included, and one you leave drops out at once.</p>
<div class="actions">
<button class="secondary" type="submit" name="decision" value="deny">Cancel</button>
<button class="primary" type="submit" name="decision" value="approve">Allow access</button>
</div>
</form>
<p class="muted">Signed in as ${escapeHtml(view.ownerEmail)}. You can disconnect this app at any time under <a href="${CONNECTED_APPS_PATH}">Connected apps</a>.</p>`,
  };
}

const when = (date: Date | null) => (date ? date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'Never');

export function connectedAppsPage(input: {
  csrfToken: string;
  ownerEmail: string;
  connections: ConnectionView[];
  notice?: string;
  error?: string;
}): SessionPage {
  const rows = input.connections.map(
    (c) => `<tr>
<td><strong>${escapeHtml(c.name)}</strong><br><span class="sub">${escapeHtml(c.detail)}</span></td>
<td class="nowrap">${c.scopes.length} permission${c.scopes.length === 1 ? '' : 's'}</td>
<td class="nowrap">${escapeHtml(when(c.last_used_at))}</td>
<td class="nowrap">${
      c.revoked_at
        ? `Revoked ${escapeHtml(when(c.revoked_at))}`
        : `<form method="post" action="${CONNECTED_APPS_PATH}/revoke">
${csrfField(input.csrfToken)}
<input type="hidden" name="connection_id" value="${escapeHtml(c.id)}">
<button class="danger" type="submit" aria-label="Revoke ${escapeHtml(c.name)}">Revoke</button>
</form>`
    }</td>
</tr>`,
  );
  const table = rows.length
    ? `<table>
<thead><tr><th>App</th><th>Access</th><th>Last used</th><th><span class="sr">Action</span></th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`
    : '<div class="empty">No apps or agents are connected to your account.</div>';
  return {
    title: 'Connected apps',
    product: PRODUCT,
    wide: true,
    body: `<div class="bar"><h1>Connected apps</h1><form method="post" action="${SIGN_OUT_PATH}">${csrfField(input.csrfToken)}<button class="link" type="submit">Sign out</button></form></div>
<p>Apps and agents that use your forms through the MCP server. Revoking one disconnects it at once; an API key you revoke here stops working on the MCP server only and keeps working on the REST API.</p>
${input.notice ? `<div class="notice" role="status">${escapeHtml(input.notice)}</div>` : ''}${alert(input.error)}${table}
<p class="muted">Signed in as ${escapeHtml(input.ownerEmail)}.</p>`,
  };
}

export function messagePage(title: string, message: string): SessionPage {
  return { title, product: PRODUCT, body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>` };
}
