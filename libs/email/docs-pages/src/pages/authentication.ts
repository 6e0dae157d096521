import { EMAIL_SCOPES, insufficientScopeError, WORK_PROFILES } from '@email/access';
import { EMAIL_ERROR_CODES, EmailErrorCode } from '@email/contracts';
import { toErrorResponse } from '@shared/errors';
import { codeBlock, html, jsonBlock, table, withCode } from '../html';
import { PageContent, pageLink, Site } from '../layout';
import { ADD_PERMISSIONS_ANCHOR } from '../routes';

const AUTHENTICATION_CODES: EmailErrorCode[] = ['missing_credential', 'invalid_credential', 'credential_revoked', 'credential_expired'];

const RESOURCE_NAMES: Record<string, string> = {
  workspace: 'the workspace profile and its sender identities',
  webhooks: 'webhook subscriptions',
};

/** What a scope allows, in a few words (its resource and action). */
function scopeMeaning(scope: string): string {
  if (scope === 'live_actions:write') {
    return 'Needed as well, beside the resource scope, by operations with effects on real people or the outside world: creating or re-activating subscribers, changing their status, tags and sequences, publishing forms and pages, sending email, webhook destinations.';
  }
  const [resource, action] = scope.split(':');
  const noun = RESOURCE_NAMES[resource] ?? resource.replace(/_/g, ' ');
  if (action === 'read') return `Read ${noun}.`;
  if (action === 'write') return `Create, change and delete ${noun}.`;
  return `${action === 'import' ? 'Import' : 'Export'} subscribers in bulk.`;
}

const scopeList = (scopes: readonly string[]) =>
  scopes.length === EMAIL_SCOPES.length ? html`every scope` : scopes.map((scope, index) => html`${index ? ', ' : ''}<code>${scope}</code>`);

export function authenticationPage(site: Site): PageContent {
  const { links, config } = site;
  const example = toErrorResponse(
    insufficientScopeError(config, { credentialType: 'workspace_api_key', scopes: ['workspace:read', 'tags:read'] }, ['tags:write'], ['tags:write']),
  ).body;
  return {
    name: 'authentication',
    title: 'Authentication and permissions',
    summary: 'How to send a workspace API key, what scopes and work profiles are, and how to recover from a 401 or 403 answer.',
    body: html`<h1>Authentication and permissions</h1>
      <p class="lead">
        Every request except <code>GET /v1</code> and <code>GET /v1/openapi.json</code> needs a workspace API key. The key decides which workspace the request
        works in and which operations it may call.
      </p>

      <h2 id="sending-the-key">Sending the key</h2>
      <p>Put the key in the <code>Authorization</code> header, after the word <code>Bearer</code> and one space:</p>
      ${codeBlock(`curl -H "Authorization: Bearer mrk_…" ${links.absolute('/v1/workspace')}`, 'Request with an API key')}
      <ul>
        <li>
          Keys start with <code>mrk_</code>. The full key is shown once, when it is created; the server keeps only a digest of it and shows its first and last
          characters afterwards (<code>key_preview</code>).
        </li>
        <li>A key belongs to one workspace, so no request names a workspace. To work in two workspaces, use two keys.</li>
        <li>A key can have an expiry time. Revoked, replaced and expired keys are refused.</li>
        <li>
          <code>GET /v1/capabilities</code> works with any valid key and returns the key's own record (<code>credential</code>, with its <code>id</code> and
          <code>scopes</code>), its workspace, and the operations it can call.
        </li>
      </ul>

      <h2 id="authentication-errors">When the key is refused: 401</h2>
      <p>A request without a usable key is answered <code>401</code> with <code>"type": "authentication_error"</code> and one of these codes:</p>
      ${table(
        ['Code', 'Meaning'],
        AUTHENTICATION_CODES.map((code) => [html`<code>${code}</code>`, withCode(EMAIL_ERROR_CODES[code].description)]),
      )}
      <p>Too many refused keys from one address in a short time are answered <code>429</code> for a while; wait for the seconds in <code>Retry-After</code>.</p>

      <h2 id="scopes">Scopes</h2>
      <p>
        Each key carries a set of scopes, fixed when the key is created. Each operation needs one or more of them: the
        <a href="${pageLink(site, 'apiReference')}">API reference</a> and the capabilities document list them as <code>required_scopes</code>. Reading and
        writing are separate scopes, so a reporting tool can hold a key that cannot change anything.
      </p>
      ${table(
        ['Scope', 'Allows'],
        EMAIL_SCOPES.map((scope) => [html`<code>${scope}</code>`, scopeMeaning(scope)]),
      )}

      <h2 id="work-profiles">Work profiles</h2>
      <p>
        A work profile is a named set of scopes for one kind of job. When a key lacks a scope, the error names the profiles that would cover the operation
        (<code>recommended_work_profiles</code>), narrowest first, so you can ask for a key that fits the job rather than one with every scope.
      </p>
      ${table(
        ['Profile', 'Scopes'],
        Object.entries(WORK_PROFILES).map(([name, scopes]) => [html`<code>${name}</code>`, scopeList(scopes)]),
      )}

      <h2 id="${ADD_PERMISSIONS_ANCHOR}">Adding permissions: 403 <code>insufficient_scope</code></h2>
      <p>
        When a key lacks a scope the operation needs, the answer is <code>403</code> with <code>"code": "insufficient_scope"</code>. The scopes of an existing
        key never change, so the way out is a new key that has them. The body says exactly which:
      </p>
      <ul>
        <li><code>missing_scopes</code>: what this key lacks for this operation;</li>
        <li><code>replacement_scopes</code>: the key's scopes plus the missing ones, the set to ask for;</li>
        <li><code>recommended_work_profiles</code>: profiles that would cover the operation;</li>
        <li>
          <code>access_update_url</code>: where keys are managed (on a self-hosted install, the <a href="${pageLink(site, 'apiKeys')}">API keys</a> page, which
          shows the admin commands);
        </li>
        <li><code>recovery</code>: the same advice in one object, for programs.</li>
      </ul>
      <p>For example, a key with <code>workspace:read</code> and <code>tags:read</code> that tries to create a tag gets:</p>
      ${jsonBlock(example, 'Example 403 answer')}
      <p>
        To recover, create a key with the <code>replacement_scopes</code> as <a href="${pageLink(site, 'apiKeys')}">API keys</a> shows, use it for the request,
        and revoke the old key once nothing uses it.
      </p>

      <h2 id="oauth">OAuth</h2>
      <p>
        Agent apps can connect without an API key: this server is an OAuth 2.1 authorization server (metadata at
        <code>/.well-known/oauth-authorization-server</code>). An app registers itself (<code>/oauth/register</code>), sends a person to
        <code>/oauth/authorize</code> with PKCE, where they sign in and choose the workspace and permissions to grant, then exchanges the code at
        <code>/oauth/token</code>. Access tokens (<code>mra_…</code>) last an hour and are refreshed with single-use refresh tokens (<code>mrt_…</code>); the
        capabilities document shows them as <code>oauth_access_token</code> credentials. A token missing a scope gets the same 403 as a key, with
        <code>reconnect_required: true</code> and the recovery action <code>reconnect_oauth</code>. People see and revoke their connected apps at
        <code>/account/connected-apps</code>.
      </p>`,
  };
}
