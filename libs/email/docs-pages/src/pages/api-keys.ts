import { codeBlock, html } from '../html';
import { PageContent, pageLink, Site } from '../layout';
import { ADD_PERMISSIONS_ANCHOR } from '../routes';

const ADMIN = 'npm run -s admin --';
const IN_CONTAINER = 'docker compose -f docker/compose.yaml exec email-api \\\n  node apps/admin-cli/dist/main.js';

/**
 * Where the 403 `access_update_url` leads. A self-hosted install has no settings screen: keys are created and revoked
 * with the admin command line, so this page gives the commands for changing what a key may do.
 */
export function apiKeysPage(site: Site): PageContent {
  const { links } = site;
  return {
    name: 'apiKeys',
    title: 'API keys',
    summary: 'How to create an API key with more scopes, replace a key and revoke one on a self-hosted Postline install, with the admin command line.',
    body: html`<h1>API keys on a self-hosted install</h1>
      <p class="lead">
        This install has no settings screen. API keys are created and revoked by an administrator with the admin command line, on the machine that runs
        Postline. A key's scopes cannot be changed: to give a client more permissions, create a new key with the scopes it needs, switch the client to it, then
        revoke the old one.
      </p>
      <div class="note">
        <p>
          Came here from a <code>403 insufficient_scope</code> answer? Its <code>replacement_scopes</code> field is the list of scopes to give the new key.
          <a href="${pageLink(site, 'authentication', ADD_PERMISSIONS_ANCHOR)}">What the error body says</a>.
        </p>
      </div>

      <h2 id="run-the-admin-cli">Running the admin command line</h2>
      <p>From the repository checkout the services run from (with the same environment, so it reaches the same database):</p>
      ${codeBlock(`${ADMIN} <command> [options]`, 'Admin command line, from a checkout')}
      <p>With the Docker Compose setup, run it inside the <code>email-api</code> container instead:</p>
      ${codeBlock(`${IN_CONTAINER} <command> [options]`, 'Admin command line, in a container')}
      <p>Each command prints one JSON document. A failure prints the error to standard error and exits with a non-zero status.</p>

      <h2 id="find-the-workspace">1. Find the workspace and the key to replace</h2>
      <p>
        Ask the API with the key you have; the answer names its workspace (<code>data.workspace.id</code>) and the key itself (<code>data.credential.id</code>,
        <code>data.credential.scopes</code>):
      </p>
      ${codeBlock(`curl -H "Authorization: Bearer $OLD_KEY" ${links.absolute('/v1/capabilities')}`, 'Read the workspace and key ids')}

      <h2 id="create-a-key">2. Create a key with the scopes it needs</h2>
      ${codeBlock(
        `${ADMIN} create-api-key --workspace wsp_… \\\n  --scopes workspace:read,tags:read,tags:write \\\n  --name "Newsletter sync" --expires-at 2027-01-01T00:00:00Z`,
        'Create an API key',
      )}
      <ul>
        <li>
          <code>--scopes</code> is a comma-separated list (no spaces); every name must be a
          <a href="${pageLink(site, 'authentication', 'scopes')}">scope of this API</a>.
        </li>
        <li>
          <code>--name</code> and <code>--expires-at</code> (an ISO 8601 date and time) are optional; without an expiry the key works until it is revoked.
        </li>
        <li>The output is <code>{"api_key": "mrk_…", "id": "key_…"}</code>. The key is shown this once: store it in the client's secret store now.</li>
      </ul>

      <h2 id="switch">3. Switch the client and check</h2>
      <p>
        Give the client the new key and repeat the request that failed, or read the capabilities again: <code>credential.scopes</code> should list the new
        scopes.
      </p>

      <h2 id="revoke">4. Revoke the old key</h2>
      ${codeBlock(`${ADMIN} revoke-api-key --id key_…`, 'Revoke an API key')}
      <p>From then on the old key is answered <code>401 credential_revoked</code>.</p>

      <h2 id="new-workspace">A new workspace</h2>
      ${codeBlock(`${ADMIN} create-workspace --name "Acme"`, 'Create a workspace')}
      <p>
        This prints <code>{"workspace_id", "api_key"}</code>; that first key has every scope. Use it to set things up, then hand narrower keys to the programs
        that use the API.
      </p>

      <h2 id="people">People who connect agent apps</h2>
      <p>
        Agent apps connect through OAuth: a person signs in at <code>/account/sign-in</code> and approves the app for one of their workspaces. Create the
        person's account as a member of their workspaces; the password is read from standard input, so it never shows in the process list:
      </p>
      ${codeBlock(`printf '%s' "$PASSWORD" | ${ADMIN} create-user --email ada@example.com --name "Ada" --workspace wsp_…,wsp_…`, 'Create a user')}
      <p>
        Passwords need at least 12 characters. Running it again for an existing address adds the person to the named workspaces (the password is then ignored).
        The person sees and revokes connected apps at <code>/account/connected-apps</code>.
      </p>`,
  };
}
