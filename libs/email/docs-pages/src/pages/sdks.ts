import { codeBlock, html } from '../html';
import { PageContent, pageLink, Site } from '../layout';
import { ADD_PERMISSIONS_ANCHOR } from '../routes';

export function sdksPage(site: Site): PageContent {
  const { links } = site;
  return {
    name: 'sdks',
    title: 'Client libraries',
    summary: 'Ways to call this email API from code: a few lines of TypeScript or Python, a generated client, or a client package of the same contract.',
    body: html`<h1>Client libraries</h1>
      <p class="lead">The API is plain JSON over HTTP, so any HTTP client works. There are three ways to call it from code.</p>

      <h2 id="plain-http">A few lines, no dependency</h2>
      <p>A helper that adds the key, sends JSON and turns error answers into exceptions is all most programs need:</p>
      <ul>
        <li>
          <a href="${pageLink(site, 'typescript')}">TypeScript and JavaScript</a>, with the <code>fetch</code> built into Node.js 18 and later and into
          browsers;
        </li>
        <li><a href="${pageLink(site, 'python')}">Python</a>, with the standard library only.</li>
      </ul>

      <h2 id="generated">A generated client</h2>
      <p>
        The <a href="${links.path('/v1/openapi.json')}">OpenAPI document</a> describes every operation with its parameters, bodies and answers. OpenAPI client
        generators turn it into a typed client for most languages.
      </p>

      <h2 id="contract-packages">Packages of the same contract</h2>
      <p>
        The capabilities document (<code>sdks</code>) names the client packages written for this version of the API: <code>@mailrith/sdk</code> for TypeScript
        and <code>mailrith-sdk</code> for Python. This install does not ship them. To try one, set its API base URL to <code>${links.apiBaseUrl}</code>; the
        package's own documentation names the setting.
      </p>`,
  };
}

const typescriptExample = (baseUrl: string) => `const BASE_URL = '${baseUrl}';
const API_KEY = process.env.POSTLINE_API_KEY;

async function call(method, path, body) {
  const response = await fetch(BASE_URL + path, {
    method,
    headers: {
      authorization: \`Bearer \${API_KEY}\`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status === 204) return null;
  const json = await response.json();
  if (!response.ok) throw Object.assign(new Error(json.error.message), json.error);
  return json;
}

// Every subscriber, page by page.
const query = new URLSearchParams({ limit: '100' });
for (;;) {
  const page = await call('GET', \`/v1/subscribers?\${query}\`);
  for (const subscriber of page.data) console.log(subscriber.email);
  if (!page.pagination.has_more) break;
  query.set('starting_after', page.pagination.next_cursor);
}`;

export function typescriptPage(site: Site): PageContent {
  return {
    name: 'typescript',
    title: 'TypeScript',
    summary: 'Calling the email API from TypeScript or JavaScript with the built-in fetch: authentication, errors and paging.',
    body: html`<h1>TypeScript and JavaScript</h1>
      <p class="lead">
        Node.js 18 and later, Deno, Bun and browsers all have <code>fetch</code>; nothing else is needed. Saved as <code>subscribers.mjs</code>, this prints
        every subscriber's email address:
      </p>
      ${codeBlock(typescriptExample(site.links.apiBaseUrl), 'TypeScript example')}
      <ul>
        <li>
          An error answer becomes an exception carrying the error's <code>code</code>, <code>type</code> and any recovery fields (for example
          <code>replacement_scopes</code> on a <a href="${pageLink(site, 'authentication', ADD_PERMISSIONS_ANCHOR)}">403</a>).
        </li>
        <li>For typed requests and answers, generate types from the <a href="${site.links.path('/v1/openapi.json')}">OpenAPI document</a>.</li>
        <li>Keep the key out of browser code that others can read: call the API from a server.</li>
      </ul>
      <p>Other options: <a href="${pageLink(site, 'sdks')}">Client libraries</a>.</p>`,
  };
}

const pythonExample = (baseUrl: string) => `import json
import os
import urllib.error
import urllib.parse
import urllib.request

BASE_URL = "${baseUrl}"
API_KEY = os.environ["POSTLINE_API_KEY"]


class ApiError(Exception):
    def __init__(self, status, error):
        super().__init__(error["message"])
        self.status = status
        self.code = error["code"]
        self.error = error


def call(method, path, body=None):
    request = urllib.request.Request(BASE_URL + path, method=method)
    request.add_header("Authorization", f"Bearer {API_KEY}")
    data = None
    if body is not None:
        request.add_header("Content-Type", "application/json")
        data = json.dumps(body).encode()
    try:
        with urllib.request.urlopen(request, data) as response:
            text = response.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as failure:
        raise ApiError(failure.code, json.loads(failure.read())["error"]) from None


# Every subscriber, page by page.
query = {"limit": 100}
while True:
    page = call("GET", "/v1/subscribers?" + urllib.parse.urlencode(query))
    for subscriber in page["data"]:
        print(subscriber["email"])
    if not page["pagination"]["has_more"]:
        break
    query["starting_after"] = page["pagination"]["next_cursor"]`;

export function pythonPage(site: Site): PageContent {
  return {
    name: 'python',
    title: 'Python',
    summary: 'Calling the email API from Python with the standard library: authentication, errors and paging.',
    body: html`<h1>Python</h1>
      <p class="lead">
        Python 3.8 and later; the standard library is enough. Saved as <code>subscribers.py</code>, this prints every subscriber's email address:
      </p>
      ${codeBlock(pythonExample(site.links.apiBaseUrl), 'Python example')}
      <ul>
        <li>
          An error answer raises <code>ApiError</code> with the HTTP status, the error <code>code</code> and the whole error object (for example
          <code>replacement_scopes</code> on a <a href="${pageLink(site, 'authentication', ADD_PERMISSIONS_ANCHOR)}">403</a>).
        </li>
        <li>Clients such as <code>requests</code> or <code>httpx</code> work the same way: add the header, send JSON, read <code>error.code</code>.</li>
      </ul>
      <p>Other options: <a href="${pageLink(site, 'sdks')}">Client libraries</a>.</p>`,
  };
}
