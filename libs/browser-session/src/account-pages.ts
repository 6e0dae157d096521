import { escapeHtml } from '@shared/core';
import { csrfField, type SessionPage } from './page-shell';

/** A scope as a person reads it on the consent page; `changes` marks what lets the app change data. */
export interface ScopeWords {
  scope: string;
  text: string;
  changes: boolean;
}

/** A service's account pages: its product name, paths and the sentences that differ. */
export interface AccountPagesOptions {
  product: string;
  signInPath: string;
  signOutPath: string;
  connectedAppsPath: string;
  /** The authorization endpoint the consent form posts to. */
  authorizePath: string;
  signIn: { heading: string; intro: string; footnote: string };
  connectedApps: { intro: string; empty: string };
}

export interface ConsentPageView {
  csrfToken: string;
  clientName: string;
  redirectUri: string;
  scopes: ScopeWords[];
  accountEmail: string;
  /** The authorization request's parameters, posted back with the decision. */
  params: Record<string, string>;
  error?: string;
  /** What the app asks to use, in the heading: "Allow X to use <subject>?". */
  subject: string;
  /** The sentence above the scope list. */
  lead: string;
  /** Trusted HTML inside the form, before the lead (e.g. a workspace choice) and after the scope list. */
  before?: string;
  after?: string;
}

/** A connected app as a service lists it (snake_case, as the service's API answers it). */
export interface ConnectionView {
  id: string;
  kind: 'oauth' | 'api_key';
  name: string;
  detail: string;
  scopes: string[];
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

/** A connected app's row; `cells` are extra text columns after the app's (headed by `columns`). */
export interface ConnectedAppRow {
  id: string;
  name: string;
  detail: string;
  scopeCount: number;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  cells?: string[];
  /** Extra hidden fields of the revoke form, besides `connection_id`. */
  revokeFields?: Record<string, string>;
}

export interface ConnectedAppsView {
  csrfToken: string;
  accountEmail: string;
  apps: ConnectedAppRow[];
  columns?: string[];
  notice?: string;
  error?: string;
}

/** A connection's row, with the service's extra cells and revoke fields. */
export function connectedAppRow(view: ConnectionView, extra: Pick<ConnectedAppRow, 'cells' | 'revokeFields'> = {}): ConnectedAppRow {
  return {
    id: view.id,
    name: view.name,
    detail: view.detail,
    scopeCount: view.scopes.length,
    lastUsedAt: view.last_used_at,
    revokedAt: view.revoked_at,
    ...extra,
  };
}

const alert = (message: string | undefined) => (message ? `<div class="alert" role="alert">${escapeHtml(message)}</div>` : '');
const hiddenField = (name: string, value: string) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
const when = (date: Date | null) => (date ? date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'Never');

/** The sign-in, consent, connected-apps and message pages every service shows, in its own words. */
export class AccountPages {
  constructor(private readonly options: AccountPagesOptions) {}

  get paths(): Pick<AccountPagesOptions, 'signInPath' | 'signOutPath' | 'connectedAppsPath' | 'authorizePath'> {
    return this.options;
  }

  signIn(input: { csrfToken: string; returnTo: string; email?: string; error?: string }): SessionPage {
    const text = this.options.signIn;
    return {
      title: 'Sign in',
      product: this.options.product,
      body: `<h1>${escapeHtml(text.heading)}</h1>
<p>${escapeHtml(text.intro)}</p>
${alert(input.error)}<form method="post" action="${this.options.signInPath}">
${csrfField(input.csrfToken)}
<input type="hidden" name="return_to" value="${escapeHtml(input.returnTo)}">
<label for="email">Email address</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}"${input.email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${input.email ? ' autofocus' : ''}>
<button class="primary" type="submit">Sign in</button>
</form>
<p class="muted">${escapeHtml(text.footnote)}</p>`,
    };
  }

  consent(view: ConsentPageView): SessionPage {
    const host = new URL(view.redirectUri).host;
    const initial = view.clientName.trim().charAt(0).toUpperCase() || '?';
    const hidden = Object.entries(view.params)
      .map(([name, value]) => hiddenField(name, value))
      .join('\n');
    return {
      title: `Allow ${view.clientName}`,
      product: this.options.product,
      formTargets: [view.redirectUri],
      body: `<h1>Allow ${escapeHtml(view.clientName)} to use ${escapeHtml(view.subject)}?</h1>
${alert(view.error)}<div class="client"><div class="badge" aria-hidden="true">${escapeHtml(initial)}</div><div><strong>${escapeHtml(view.clientName)}</strong><span>Returns to ${escapeHtml(host)}</span></div></div>
<form method="post" action="${this.options.authorizePath}">
${csrfField(view.csrfToken)}
${hidden}
${view.before ? `${view.before}\n` : ''}<p class="lead">${escapeHtml(view.lead)}</p>
<ul class="scopes">
${view.scopes.map((s) => `<li><div><strong>${escapeHtml(s.text)}</strong><span>${escapeHtml(s.scope)}</span></div>${s.changes ? '<span class="write">Changes data</span>' : ''}</li>`).join('\n')}
</ul>
${view.after ? `${view.after}\n` : ''}<div class="actions">
<button class="secondary" type="submit" name="decision" value="deny">Cancel</button>
<button class="primary" type="submit" name="decision" value="approve">Allow access</button>
</div>
</form>
<p class="muted">Signed in as ${escapeHtml(view.accountEmail)}. You can disconnect this app at any time under <a href="${this.options.connectedAppsPath}">Connected apps</a>.</p>`,
    };
  }

  connectedApps(view: ConnectedAppsView): SessionPage {
    const path = this.options.connectedAppsPath;
    const rows = view.apps.map(
      (app) => `<tr>
<td><strong>${escapeHtml(app.name)}</strong><br><span class="sub">${escapeHtml(app.detail)}</span></td>
${(app.cells ?? []).map((cell) => `<td>${escapeHtml(cell)}</td>\n`).join('')}<td class="nowrap">${app.scopeCount} permission${app.scopeCount === 1 ? '' : 's'}</td>
<td class="nowrap">${escapeHtml(when(app.lastUsedAt))}</td>
<td class="nowrap">${
        app.revokedAt
          ? `Revoked ${escapeHtml(when(app.revokedAt))}`
          : `<form method="post" action="${path}/revoke">
${csrfField(view.csrfToken)}
${hiddenField('connection_id', app.id)}
${Object.entries(app.revokeFields ?? {})
  .map(([name, value]) => `${hiddenField(name, value)}\n`)
  .join('')}<button class="danger" type="submit" aria-label="Revoke ${escapeHtml(app.name)}">Revoke</button>
</form>`
      }</td>
</tr>`,
    );
    const headers = ['App', ...(view.columns ?? []), 'Access', 'Last used'].map((name) => `<th>${escapeHtml(name)}</th>`).join('');
    const table = rows.length
      ? `<table>
<thead><tr>${headers}<th><span class="sr">Action</span></th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`
      : `<div class="empty">${escapeHtml(this.options.connectedApps.empty)}</div>`;
    return {
      title: 'Connected apps',
      product: this.options.product,
      wide: true,
      body: `<div class="bar"><h1>Connected apps</h1><form method="post" action="${this.options.signOutPath}">${csrfField(view.csrfToken)}<button class="link" type="submit">Sign out</button></form></div>
<p>${escapeHtml(this.options.connectedApps.intro)}</p>
${view.notice ? `<div class="notice" role="status">${escapeHtml(view.notice)}</div>` : ''}${alert(view.error)}${table}
<p class="muted">Signed in as ${escapeHtml(view.accountEmail)}.</p>`,
    };
  }

  message(title: string, message: string): SessionPage {
    return { title, product: this.options.product, body: `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>` };
  }
}
