import { html } from '../html';
import { PageContent, pageLink, Site } from '../layout';
import { ADD_PERMISSIONS_ANCHOR } from '../routes';

export function agentsPage(site: Site): PageContent {
  const { links } = site;
  const file = (route: string, label: string) => html`<a href="${links.path(route)}">${label}</a>`;
  return {
    name: 'agents',
    title: 'Agents and LLMs',
    summary: 'The discovery documents an automated client or language model can read to learn this API, and how to use them.',
    body: html`<h1>Agents and LLMs</h1>
      <p class="lead">Everything a program needs to learn this API is published by the API itself, so an agent can start from one URL and a key.</p>

      <h2 id="discovery">Where to start</h2>
      <ol>
        <li>${file('/v1', 'GET /v1')} (no key): the API version and every discovery link.</li>
        <li>
          <code>GET /v1/capabilities</code> (any valid key): the workspace, the key and its scopes, the operations this key can call right now, and
          <code>limitations</code> explaining what is withheld and why. Plan from this list rather than from the whole reference.
        </li>
        <li>
          ${file('/v1/openapi.json', 'GET /v1/openapi.json')}: parameters, request bodies and response schemas of every operation, with the scopes each needs
          (<code>x-required-scopes</code>).
        </li>
        <li>${file('/llms.txt', 'llms.txt')}: a short plain-text map of the API; ${file('/llms-full.txt', 'llms-full.txt')} adds every parameter and field.</li>
        <li>${file('/.well-known/api-catalog', '/.well-known/api-catalog')}: the same links as an RFC 9727 link set.</li>
      </ol>

      <h2 id="behaving-well">Behaving well</h2>
      <ul>
        <li>Branch on <code>error.code</code>, never on the message text.</li>
        <li>
          A <code>403 insufficient_scope</code> answer lists the scopes a new key needs (<code>replacement_scopes</code>); report it to a person rather than
          retrying (see <a href="${pageLink(site, 'authentication', ADD_PERMISSIONS_ANCHOR)}">adding permissions</a>).
        </li>
        <li>
          After a <code>429</code>, wait the seconds in <code>Retry-After</code>. A <code>503 service_unavailable</code> is worth retrying after its
          <code>Retry-After</code> too.
        </li>
        <li>Send an <code>Idempotency-Key</code> with creating requests, so a retry after a lost answer does not create twice.</li>
        <li>Page with <code>starting_after</code> set to the previous page's <code>next_cursor</code>, unchanged, until <code>has_more</code> is false.</li>
        <li>Send your own request id in <code>x-request-id</code> if you have one; every answer echoes the id it used.</li>
      </ul>

      <h2 id="mcp">MCP</h2>
      <p>
        The discovery documents name an MCP server, but this install does not run one yet (see <a href="${pageLink(site, 'mcp')}">MCP</a>). Agents use the REST
        API directly.
      </p>`,
  };
}
