import { html } from '../html';
import { PageContent, pageLink, Site } from '../layout';

/** Swagger UI renders the reference in the browser from this server's own OpenAPI document. */
export function apiReferencePage(site: Site): PageContent {
  const openApi = site.links.path('/v1/openapi.json');
  return {
    name: 'apiReference',
    title: 'API reference',
    summary: 'Every operation of this email API with its parameters, request bodies, responses and required scopes, from its OpenAPI document.',
    reference: true,
    body: html`<h1>API reference</h1>
      <p class="prose reference-intro">
        Every operation this server implements, rendered from its <a href="${openApi}">OpenAPI document</a>. Requests need an API key (<a
          href="${pageLink(site, 'authentication')}"
          >authentication</a
        >); each operation shows the scopes it needs as <code>x-required-scopes</code>, and <code>GET /v1/capabilities</code> lists those your key can call.
      </p>
      <div id="api-reference" data-openapi-url="${openApi}">
        <noscript
          ><p>
            The interactive reference needs JavaScript. The same information is in the <a href="${openApi}">OpenAPI document</a> and, as plain text, in
            <a href="${site.links.path('/llms-full.txt')}">llms-full.txt</a>.
          </p></noscript
        >
      </div>`,
  };
}
