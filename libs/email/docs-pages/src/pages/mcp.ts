import { html } from '../html';
import { PageContent, pageLink, Site } from '../layout';

export function mcpPage(site: Site): PageContent {
  const { links } = site;
  const url = links.absolute('/mcp');
  return {
    name: 'mcp',
    title: 'MCP',
    summary: 'The Model Context Protocol endpoint: one tool per REST operation, toolsets, read-only connections and how tool calls authenticate.',
    body: html`<h1>MCP (Model Context Protocol)</h1>
      <p class="lead">
        <code>${url}</code> is an MCP server over streamable HTTP (stateless: every JSON-RPC message is a POST, answered with JSON). Each tool runs one REST
        operation of this API, with the same rules, scopes and validation.
      </p>

      <h2 id="tools">Tools</h2>
      <p>
        There is one tool per REST operation this server offers, named as the contract names it (<code>subscribers_list</code>,
        <code>tags_create</code>, …), with its <code>readOnlyHint</code>, <code>destructiveHint</code>, <code>idempotentHint</code> and
        <code>openWorldHint</code>. A tool's arguments are the operation's path parameters, query parameters and body fields in one object;
        <code>idempotency_key</code> is sent as the <code>Idempotency-Key</code> header. A body that is not an object with named fields is the argument
        <code>body</code>.
      </p>
      <p>
        A result carries <code>{operation_id, request_id, response}</code>, where <code>response</code> is the REST answer; a failed call is marked
        <code>isError</code> and carries <code>{operation_id, request_id, error: {category, status, code, message, retryable}}</code>. Every tool publishes an
        output schema that its results validate against.
      </p>

      <h2 id="authentication">Authentication</h2>
      <p>
        Listing tools needs no credential. Calling one needs your API key as <code>Authorization: Bearer &lt;key&gt;</code> on the MCP request; without a valid
        one the answer is <code>401</code> with a <code>WWW-Authenticate</code> challenge naming
        <code>${links.absolute('/.well-known/oauth-protected-resource/mcp')}</code>. See <a href="${pageLink(site, 'authentication')}">Authentication</a>.
      </p>

      <h2 id="toolsets">Toolsets and read-only connections</h2>
      <p>
        Toolsets are the work profiles. Choose them per connection with the query parameter <code>toolsets</code> (comma-separated) or the header
        <code>mailrith-mcp-toolsets</code>; the default is <code>full_email_marketing_access</code>. <code>read_only=true</code> (or
        <code>mailrith-mcp-read-only: true</code>) offers only the tools that change nothing, and <code>operation_ids</code> narrows the tools further.
        <code>discovery_get_capabilities</code> called through such a connection lists only its operations, under <code>mcp.active_toolsets</code>,
        <code>mcp.active_operation_ids</code> and <code>mcp.read_only</code>.
      </p>
      <p>Example: <code>${url}?toolsets=reporting&amp;read_only=true</code>.</p>

      <h2 id="stdio">Local clients over stdio</h2>
      <p>
        A client that starts its MCP servers as processes can run <code>postline-email-mcp --url ${links.absolute('')}</code> (the bin of the repository's
        <code>@email/mcp</code> package; add <code>--toolsets</code> or <code>--read-only</code> as above). It reads the API key from
        <code>POSTLINE_API_KEY</code> and serves, on stdin and stdout, the tools of this server's MCP URL.
      </p>`,
  };
}
