import { codeBlock, html } from '../html';
import { PageContent, pageLink, Site } from '../layout';
import { notYetAvailable } from './not-yet-available';

export function overviewPage(site: Site): PageContent {
  const { links } = site;
  const card = (name: Parameters<typeof pageLink>[1], label: string, text: string) =>
    html`<li>
      <a href="${pageLink(site, name)}">${label}</a>
      <p>${text}</p>
    </li>`;
  return {
    name: 'index',
    title: 'Overview',
    summary: 'What the Postline email API is, how to make a first request, and where its reference and machine-readable descriptions are.',
    body: html`<h1>Postline email API</h1>
      <p class="lead">
        A JSON API over HTTP for one workspace's audience: subscribers, tags, custom fields and the sender identities email can go out from. Every request names
        no workspace: the API key you send selects it.
      </p>
      <p>Base URL of this install: <code>${links.absolute('/v1')}</code></p>

      <h2>First request</h2>
      <ol>
        <li>
          Get an API key. On a self-hosted install an administrator creates one with the admin command line;
          <a href="${pageLink(site, 'apiKeys')}">API keys</a> shows how.
        </li>
        <li>Ask the API what your key can do:</li>
      </ol>
      ${codeBlock(`curl -H "Authorization: Bearer $POSTLINE_API_KEY" \\\n  ${links.absolute('/v1/capabilities')}`, 'Example request')}
      <p>
        The answer names the workspace, the key and its scopes, and lists every operation the key can call right now, grouped by resource. Then open the
        <a href="${pageLink(site, 'apiReference')}">API reference</a> for the parameters and bodies of each one.
      </p>

      <h2>Guides</h2>
      <ul class="cards">
        ${card('apiReference', 'API reference', 'Every operation this server implements, rendered from its OpenAPI document.')}
        ${card('authentication', 'Authentication and permissions', 'Sending the key, scopes, work profiles, and what to do with a 401 or 403.')}
        ${card('apiKeys', 'API keys', 'Creating, replacing and revoking keys on a self-hosted install.')}
        ${card('agents', 'Agents and LLMs', 'The discovery files an automated client can read.')}
        ${card('sdks', 'Client libraries', 'Calling the API from TypeScript, Python or a generated client.')}
        ${card('mcp', 'MCP', 'The Model Context Protocol endpoint, and why it is not here yet.')}
      </ul>

      <h2>Conventions</h2>
      <ul>
        <li>Bodies are JSON; send <code>Content-Type: application/json</code> with one.</li>
        <li>
          One record comes back as <code>{"data": {…}}</code>. A list comes back as <code>{"data": […], "pagination": {"has_more", "next_cursor"}}</code>: pass
          <code>next_cursor</code> unchanged as <code>starting_after</code> for the next page, and <code>limit</code> (1 to 100) for its size.
        </li>
        <li>
          Creating operations accept an <code>Idempotency-Key</code> header: a retry with the same key and the same body gets the first answer again instead of
          doing the work twice.
        </li>
        <li>
          Errors look like <code>{"error": {"type", "code", "message"}}</code>. Act on <code>code</code>; the message is for people. A 429 says how long to wait
          in <code>Retry-After</code>.
        </li>
        <li>Every answer carries the request id in <code>x-request-id</code>; quote it when you report a problem.</li>
      </ul>

      <h2>Machine-readable descriptions</h2>
      <ul>
        <li><a href="${links.path('/v1/openapi.json')}">OpenAPI document</a> (<code>GET /v1/openapi.json</code>): what the API reference is rendered from.</li>
        <li><a href="${links.path('/v1')}">API metadata</a> (<code>GET /v1</code>): the version and every discovery link.</li>
        <li>
          <a href="${links.path('/llms.txt')}">llms.txt</a> and <a href="${links.path('/llms-full.txt')}">llms-full.txt</a>: the API in plain text for language
          models.
        </li>
        <li><a href="${links.path('/.well-known/api-catalog')}">API catalog</a>: an RFC 9727 link set pointing at all of the above.</li>
      </ul>

      ${notYetAvailable(site)}`,
  };
}
