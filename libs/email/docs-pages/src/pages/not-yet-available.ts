import { UNAVAILABLE_FEATURES } from '@email/platform';
import { html, SafeHtml } from '../html';
import { Site } from '../layout';

/** The advertised features this server does not offer yet, and how their URLs answer meanwhile (nothing when none). */
export function notYetAvailable(site: Site): SafeHtml {
  if (UNAVAILABLE_FEATURES.length === 0) return html``;
  const routes = (paths: readonly string[]) =>
    paths.map((path, index) => html`${index ? ', ' : ''}<code class="path">${site.links.path(`/${path.replace(/:([a-z_]+)/g, '{$1}')}`)}</code>`);
  return html`<h2 id="not-yet-available">Not available on this server yet</h2>
    <p>
      The API metadata and the capabilities document name a few things this install does not offer yet. Their URLs answer <code>501 Not Implemented</code> with
      a JSON error whose code says what is missing, and the capabilities document lists each under <code>limitations</code>:
    </p>
    <ul>
      ${UNAVAILABLE_FEATURES.map(({ title, code, paths }) => html`<li><strong>${title}</strong>: <code>${code}</code>, from ${routes(paths)}.</li>`)}
    </ul>
    <p>Until then, authenticate with a workspace API key and find changes by listing records.</p>`;
}
