import { featureNotAvailable } from '@email/platform';
import { toErrorResponse } from '@shared/errors';
import { html, jsonBlock } from '../html';
import { PageContent, pageLink, Site } from '../layout';

export function mcpPage(site: Site): PageContent {
  const { links } = site;
  return {
    name: 'mcp',
    title: 'MCP',
    summary: 'The Model Context Protocol endpoint this API advertises is not available on this install yet; what its URL answers and what to use instead.',
    body: html`<h1>MCP (Model Context Protocol)</h1>
      <p class="lead">
        The API metadata and the capabilities document name an MCP server for this API, at <code>${links.absolute('/mcp')}</code>. This install does not run it
        yet.
      </p>

      <h2 id="what-it-answers">What the MCP URL answers</h2>
      <p>
        Any request to <code>${links.path('/mcp')}</code> is answered <code>501 Not Implemented</code> with a JSON error, so a client can tell "not offered
        here" from a typo or an outage:
      </p>
      ${jsonBlock(toErrorResponse(featureNotAvailable('mcp_not_available')).body, 'The answer of the MCP URL')}
      <p>The capabilities document says the same under <code>limitations</code>, with the code <code>mcp_not_available</code>.</p>

      <h2 id="instead">What to use instead</h2>
      <p>
        Tools that would call MCP can call the REST API directly: every MCP tool of this API corresponds to one REST operation.
        <a href="${pageLink(site, 'agents')}">Agents and LLMs</a> lists the documents that describe them.
      </p>`,
  };
}
