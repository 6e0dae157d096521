import { AccountPages } from './account-pages';

const pages = new AccountPages({
  product: 'Acme',
  signInPath: '/in',
  signOutPath: '/out',
  connectedAppsPath: '/apps',
  authorizePath: '/authorize',
  signIn: { heading: 'Sign in', intro: 'To <approve>', footnote: 'Ask' },
  connectedApps: { intro: 'Your apps', empty: 'None yet' },
});

describe('AccountPages', () => {
  it('escapes the service text and the values, and posts the sign-in form to the service path', () => {
    const page = pages.signIn({ csrfToken: 't"1', returnTo: '/x?a=1&b=2', email: 'a@b.c', error: 'Bad <pw>' });
    expect(page.product).toBe('Acme');
    expect(page.body).toContain('<p>To &lt;approve&gt;</p>');
    expect(page.body).toContain('action="/in"');
    expect(page.body).toContain('value="/x?a=1&amp;b=2"');
    expect(page.body).toContain('Bad &lt;pw&gt;');
    expect(page.body).not.toContain('t"1');
  });

  it('puts the service parts of the consent form around the scope list and allows the redirect origin', () => {
    const page = pages.consent({
      csrfToken: 't',
      clientName: 'app',
      redirectUri: 'https://app.example/cb',
      scopes: [{ scope: 'a:write', text: 'Change a', changes: true }],
      accountEmail: 'p@q.r',
      params: { state: 's"1' },
      subject: 'your things',
      lead: 'It may:',
      before: '<p id="before"></p>',
      after: '<p id="after"></p>',
    });
    expect(page.formTargets).toEqual(['https://app.example/cb']);
    expect(page.body).toContain('Allow app to use your things?');
    expect(page.body).toContain('value="s&quot;1"');
    const order = ['id="before"', 'It may:', 'Change a', 'id="after"', 'value="approve"'].map((text) => page.body.indexOf(text));
    expect(order.every((at, i) => at > (order[i - 1] ?? 0))).toBe(true);
  });

  it('lists connected apps with the service columns and revoke fields, or says there are none', () => {
    const app = {
      id: 'c1',
      name: 'App',
      detail: 'OAuth',
      scopeCount: 1,
      lastUsedAt: null,
      revokedAt: null,
      cells: ['Main'],
      revokeFields: { workspace_id: 'ws_1' },
    };
    const page = pages.connectedApps({ csrfToken: 't', accountEmail: 'p@q.r', apps: [app], columns: ['Workspace'] });
    expect(page.body).toContain('<th>App</th><th>Workspace</th><th>Access</th>');
    expect(page.body).toContain('<td>Main</td>');
    expect(page.body).toContain('1 permission<');
    expect(page.body).toContain('name="workspace_id" value="ws_1"');
    expect(pages.connectedApps({ csrfToken: 't', accountEmail: 'p@q.r', apps: [] }).body).toContain('<div class="empty">None yet</div>');
  });
});
