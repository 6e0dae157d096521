import { DocsSite } from './docs-site';
import { exampleJson, html, SafeHtml } from './html';
import { DOCS_PAGE_ROUTES } from './routes';

const config = { publicBaseUrl: 'https://mail.example.test', docsBaseUrl: 'https://mail.example.test/docs', appBaseUrl: 'https://mail.example.test' };

describe('html', () => {
  it('escapes interpolated text and keeps SafeHtml and lists of it', () => {
    const name = '<script>"x" & \'y\'</script>';
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;">&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;</p>',
    );
    expect(
      html`<ul>
          ${['a', 'b'].map((item) => html`<li>${item}</li>`)}
        </ul>
        ${new SafeHtml('<br>')}${false}${null}`.value.replace(/>\s+</g, '><'),
    ).toBe('<ul><li>a</li><li>b</li></ul><br>');
  });

  it('writes example JSON with lists of plain values on one line', () => {
    expect(exampleJson({ error: { code: 'x', scopes: ['a', 'b'], nested: [{ n: 1 }], empty: {} } })).toBe(
      '{\n  "error": {\n    "code": "x",\n    "scopes": ["a", "b"],\n    "nested": [\n      {\n        "n": 1\n      }\n    ],\n    "empty": {}\n  }\n}',
    );
  });
});

describe('DocsSite', () => {
  const site = new DocsSite(config);
  const text = (route: string) => site.page(route)!.body.toString();

  it('renders every page route, each marking itself current in the navigation', () => {
    for (const route of Object.values(DOCS_PAGE_ROUTES)) {
      const page = text(route);
      expect(page).toMatch(/^<!doctype html>\s*<html lang="en">/);
      expect(page.match(/<h1>/g)).toHaveLength(1);
      expect(page.match(/aria-current="page"/g)?.length ?? 0).toBeLessThanOrEqual(1);
    }
    expect(site.page('/docs/nothing')).toBeUndefined();
  });

  it('links its pages and files root-relative, under the path of PUBLIC_BASE_URL', () => {
    const prefixed = new DocsSite({ ...config, publicBaseUrl: 'https://example.test/email' });
    const overview = prefixed.page('/docs')!.body.toString();
    expect(overview).toContain('href="/email/docs/authentication"');
    expect(overview).toContain('href="/email/v1/openapi.json"');
    expect(overview).toContain('https://example.test/email/v1/capabilities');
    expect(overview).toMatch(/href="\/email\/docs\/assets\/docs\.[0-9a-f]{12}\.css"/);
    expect(prefixed.home).toBe('/email/docs');
  });

  it('names each static file after its content and serves only those', () => {
    const files = [...text('/docs/api-reference').matchAll(/(?:href|src)="\/docs\/assets\/([^"]+)"/g)].map((match) => match[1]);
    expect(files).toEqual([
      expect.stringMatching(/^swagger-ui\.[0-9a-f]{12}\.css$/),
      expect.stringMatching(/^docs\.[0-9a-f]{12}\.css$/),
      expect.stringMatching(/^swagger-ui-bundle\.[0-9a-f]{12}\.js$/),
      expect.stringMatching(/^reference\.[0-9a-f]{12}\.js$/),
    ]);
    for (const file of files) {
      const asset = site.asset(file)!;
      expect(asset.body.length).toBeGreaterThan(100);
      expect(asset.gzip().length).toBeLessThan(asset.body.length);
    }
    expect(site.asset('swagger-ui-bundle.js')).toBeUndefined();
    expect(site.asset(files[2])!.body.toString()).not.toMatch(/sourceMappingURL/);
  });

  it('sends a CSP with no inline script or style and nothing from other origins but the API', () => {
    expect(site.csp).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' https://mail.example.test; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    for (const route of Object.values(DOCS_PAGE_ROUTES)) {
      expect(text(route)).not.toMatch(/<script>|<style|\sstyle="|\son[a-z]+="/);
    }
  });

  it('names where each link goes (no "here" or "details" links)', () => {
    for (const route of Object.values(DOCS_PAGE_ROUTES)) {
      const texts = [...text(route).matchAll(/<a [^>]*>([\s\S]*?)<\/a>/g)].map((match) =>
        match[1]
          .replace(/<[^>]+>/g, '')
          .trim()
          .toLowerCase(),
      );
      expect({ route, vague: texts.filter((link) => ['', 'here', 'details', 'how', 'link', 'more'].includes(link)) }).toEqual({ route, vague: [] });
    }
  });

  it('shows the 403 example with the URLs this install sends and the anchor its help link names', () => {
    const page = text('/docs/authentication');
    expect(page).toContain('id="add-permissions"');
    expect(page).toContain('&quot;access_update_url&quot;: &quot;https://mail.example.test/settings?tab=api-keys&quot;');
    expect(page).toContain('&quot;permissions_help_url&quot;: &quot;https://mail.example.test/docs/authentication#add-permissions&quot;');
  });
});
