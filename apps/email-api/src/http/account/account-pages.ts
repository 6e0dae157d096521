import { ACCOUNT_PATHS, AccountPages, connectedAppRow, SessionPage } from '@shared/browser-session';
import { escapeHtml } from '@shared/core';
import { EMAIL_OAUTH, type ConnectionView, type ScopeWords } from '@email/oauth';

export const SIGN_IN_PATH = ACCOUNT_PATHS.signIn;
const SIGN_OUT_PATH = ACCOUNT_PATHS.signOut;
const CONNECTED_APPS_PATH = EMAIL_OAUTH.connectedAppsPath;

export const accountPages = new AccountPages({
  product: 'Postline',
  signInPath: SIGN_IN_PATH,
  signOutPath: SIGN_OUT_PATH,
  connectedAppsPath: CONNECTED_APPS_PATH,
  authorizePath: '/oauth/authorize',
  signIn: {
    heading: 'Sign in',
    intro: 'Sign in to approve apps that connect to your workspaces.',
    footnote: "Accounts are created by your workspace's administrator.",
  },
  connectedApps: {
    intro: 'Apps and agents that use your workspaces through the MCP server. Revoking one signs it out at once; your API keys keep working on the REST API.',
    empty: 'No apps are connected to your workspaces.',
  },
});

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

/** An email grant is for one workspace: the person picks it (or sees the only one). */
export function consentPage({ workspaces, userEmail, ...view }: ConsentView): SessionPage {
  const workspace =
    workspaces.length === 1
      ? `<input type="hidden" name="workspace_id" value="${escapeHtml(workspaces[0].id)}">
<p>Workspace: <strong>${escapeHtml(workspaces[0].name)}</strong></p>`
      : `<label for="workspace">Workspace to connect</label>
<select id="workspace" name="workspace_id" required>
${workspaces.map((w) => `<option value="${escapeHtml(w.id)}">${escapeHtml(w.name)}</option>`).join('\n')}
</select>`;
  return accountPages.consent({ ...view, accountEmail: userEmail, subject: 'your workspace', lead: 'It will be able to:', before: workspace });
}

/** An email connection belongs to one workspace: a column of its own, and the revoke form names it. */
export const connectedApps = (connections: ConnectionView[]) => ({
  columns: ['Workspace'],
  apps: connections.map((c) => connectedAppRow(c, { cells: [c.workspace.name], revokeFields: { workspace_id: c.workspace.id } })),
});

export const messagePage = (title: string, message: string): SessionPage => accountPages.message(title, message);
