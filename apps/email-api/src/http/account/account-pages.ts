import { csrfField, SessionPage } from '@shared/browser-session';
import { escapeHtml } from '@shared/core';
import { EMAIL_OAUTH, type ConnectionView, type ScopeWords } from '@email/oauth';

const PRODUCT = 'Postline';
export const SIGN_IN_PATH = '/account/sign-in';
export const SIGN_OUT_PATH = '/account/sign-out';
export const CONNECTED_APPS_PATH = EMAIL_OAUTH.connectedAppsPath;

const alert = (message: string | undefined) => (message ? `<div class="alert" role="alert">${escapeHtml(message)}</div>` : '');

export function signInPage(input: { csrfToken: string; returnTo: string; email?: string; error?: string }): SessionPage {
  return {
    title: 'Sign in',
    product: PRODUCT,
    body: `<h1>Sign in</h1>
<p>Sign in to approve apps that connect to your workspaces.</p>
${alert(input.error)}<form method="post" action="${SIGN_IN_PATH}">
${csrfField(input.csrfToken)}
<input type="hidden" name="return_to" value="${escapeHtml(input.returnTo)}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"${input.email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${input.email ? ' autofocus' : ''}>
<button class="primary" type="submit">Sign in</button>
</form>
<p class="muted">Accounts are created by your workspace's administrator.</p>`,
  };
}

export interface ConsentView {
  csrfToken: string;
  clientName: string;
  redirectUri: string;
  scopes: ScopeWords[];
  workspaces: Array<{ id: string; name: string }>;
  userEmail: string;
  /** The authorization request's parameters, posted back with the decision. */
  params: Record<string, string>;
  error?: string;
}

export function consentPage(view: ConsentView): SessionPage {
  const host = new URL(view.redirectUri).host;
  const initial = view.clientName.trim().charAt(0).toUpperCase() || '?';
  const hidden = Object.entries(view.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const workspace =
    view.workspaces.length === 1
      ? `<input type="hidden" name="workspace_id" value="${escapeHtml(view.workspaces[0].id)}">
<p>Workspace: <strong>${escapeHtml(view.workspaces[0].name)}</strong></p>`
      : `<label for="workspace">Workspace to connect</label>
<select id="workspace" name="workspace_id" required>
${view.workspaces.map((w) => `<option value="${escapeHtml(w.id)}">${escapeHtml(w.name)}</option>`).join('\n')}
</select>`;
  return {
    title: `Allow ${view.clientName}`,
    product: PRODUCT,
    formTargets: [view.redirectUri],
    body: `<h1>Allow ${escapeHtml(view.clientName)} to use your workspace?</h1>
${alert(view.error)}<div class="client"><div class="badge" aria-hidden="true">${escapeHtml(initial)}</div><div><strong>${escapeHtml(view.clientName)}</strong><span>Returns to ${escapeHtml(host)}</span></div></div>
<form method="post" action="/oauth/authorize">
${csrfField(view.csrfToken)}
${hidden}
${workspace}
<p class="lead">It will be able to:</p>
<ul class="scopes">
${view.scopes.map((s) => `<li><div><strong>${escapeHtml(s.text)}</strong><span>${escapeHtml(s.scope)}</span></div>${s.changes ? '<span class="write">Changes data</span>' : ''}</li>`).join('\n')}
</ul>
<div class="actions">
<button class="secondary" type="submit" name="decision" value="deny">Cancel</button>
<button class="primary" type="submit" name="decision" value="approve">Allow access</button>
</div>
</form>
<p class="muted">Signed in as ${escapeHtml(view.userEmail)}. You can disconnect this app at any time under <a href="${CONNECTED_APPS_PATH}">Connected apps</a>.</p>`,
  };
}

const when = (date: Date | null) => (date ? date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'Never');

export function connectedAppsPage(input: {
  csrfToken: string;
  userEmail: string;
  connections: ConnectionView[];
  notice?: string;
  error?: string;
}): SessionPage {
  const rows = input.connections.map(
    (c) => `<tr>
<td><strong>${escapeHtml(c.name)}</strong><br><span class="sub">${escapeHtml(c.detail)}</span></td>
<td>${escapeHtml(c.workspace.name)}</td>
<td class="nowrap">${c.scopes.length} permission${c.scopes.length === 1 ? '' : 's'}</td>
<td class="nowrap">${escapeHtml(when(c.last_used_at))}</td>
<td class="nowrap">${
      c.revoked_at
        ? `Revoked ${escapeHtml(when(c.revoked_at))}`
        : `<form method="post" action="${CONNECTED_APPS_PATH}/revoke">
${csrfField(input.csrfToken)}
<input type="hidden" name="connection_id" value="${escapeHtml(c.id)}">
<input type="hidden" name="workspace_id" value="${escapeHtml(c.workspace.id)}">
<button class="danger" type="submit" aria-label="Revoke ${escapeHtml(c.name)}">Revoke</button>
</form>`
    }</td>
</tr>`,
  );
  const table = rows.length
    ? `<table>
<thead><tr><th>App</th><th>Workspace</th><th>Access</th><th>Last used</th><th><span class="sr">Action</span></th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`
    : '<div class="empty">No apps are connected to your workspaces.</div>';
  return {
    title: 'Connected apps',
    product: PRODUCT,
    wide: true,
    body: `<div class="bar"><h1>Connected apps</h1><form method="post" action="${SIGN_OUT_PATH}">${csrfField(input.csrfToken)}<button class="link" type="submit">Sign out</button></form></div>
<p>Apps and agents that use your workspaces through the MCP server. Revoking one signs it out at once; your API keys keep working on the REST API.</p>
${input.notice ? `<div class="notice" role="status">${escapeHtml(input.notice)}</div>` : ''}${alert(input.error)}${table}
<p class="muted">Signed in as ${escapeHtml(input.userEmail)}.</p>`,
  };
}

export function messagePage(title: string, message: string): SessionPage {
  return { title, product: PRODUCT, body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>` };
}
