import { ACCOUNT_PATHS, AccountPages, connectedAppRow, SessionPage } from '@shared/browser-session';
import { escapeHtml } from '@shared/core';
import { FORMS_OAUTH } from '@forms/oauth';
import type { ConnectionView, OwnerWorkspace, ScopeWords } from '@forms/oauth';

export const SIGN_IN_PATH = ACCOUNT_PATHS.signIn;
const SIGN_OUT_PATH = ACCOUNT_PATHS.signOut;
const CONNECTED_APPS_PATH = FORMS_OAUTH.connectedAppsPath;

const ROLE_WORDS: Record<string, string> = { owner: 'owner', editor: 'editor', viewer: 'viewer (read only)' };

export const accountPages = new AccountPages({
  product: 'Postline Forms',
  signInPath: SIGN_IN_PATH,
  signOutPath: SIGN_OUT_PATH,
  connectedAppsPath: CONNECTED_APPS_PATH,
  authorizePath: '/oauth/authorize',
  signIn: {
    heading: 'Sign in to Postline Forms',
    intro: 'Sign in to connect apps and agents to your forms, and to manage the ones you connected.',
    footnote: 'No password yet? An administrator sets it for your account.',
  },
  connectedApps: {
    intro:
      'Apps and agents that use your forms through the MCP server. Revoking one disconnects it at once; an API key you revoke here stops working on the MCP server only and keeps working on the REST API.',
    empty: 'No apps or agents are connected to your account.',
  },
});

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
export function consentPage({ workspaces, ownerEmail, ...view }: ConsentView): SessionPage {
  const rows = workspaces
    .map((w) => `<li><div><strong>${escapeHtml(w.name)}</strong><span>Your role: ${escapeHtml(ROLE_WORDS[w.role] ?? w.role)}</span></div></li>`)
    .join('\n');
  return accountPages.consent({
    ...view,
    accountEmail: ownerEmail,
    subject: 'your forms',
    lead: 'It will act as you, and will be able to:',
    after: `<p class="lead">In the workspaces you belong to, as far as your role there allows:</p>
<ul class="scopes">
${rows}
</ul>
<p class="muted">Workspaces you join later are included, and one you leave drops out at once.</p>`,
  });
}

export const connectedApps = (connections: ConnectionView[]) => ({ apps: connections.map((c) => connectedAppRow(c)) });

export const messagePage = (title: string, message: string): SessionPage => accountPages.message(title, message);
