import { escapeHtml } from '@shared/core';
import type { ProviderSetting, SetupDoneView, SetupFormView } from '@email/delivery';
import { HtmlPage } from '@shared/browser-session';

export const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:34rem;margin:6vh auto;padding:2rem 1.75rem;background:#fff;border:1px solid #d0d7de;border-radius:12px}
h1{font-size:1.4rem;line-height:1.3;margin:0 0 .5rem;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:1.75rem 0 .5rem}
p{margin:0 0 1rem;color:#424a53;overflow-wrap:anywhere}
.eyebrow{font-size:.8rem;font-weight:600;letter-spacing:.04em;text-transform:uppercase;color:#656d76;margin:0 0 .25rem}
.sender{padding:.75rem 1rem;background:#f6f8fa;border-radius:8px;margin:0 0 1.5rem;font-size:.95rem}
label{display:block;font-weight:600;margin:1rem 0 .3rem}
.optional{font-weight:400;color:#656d76}
input,select{display:block;width:100%;padding:.6rem .7rem;font:inherit;border:1px solid #8c959f;border-radius:6px;background:#fff;color:inherit}
input:focus,select:focus{outline:3px solid #0969da55;border-color:#0969da}
.hint{font-size:.85rem;color:#656d76;margin:.3rem 0 0}
.field-error{font-size:.875rem;color:#cf222e;margin:.3rem 0 0}
[aria-invalid=true]{border-color:#cf222e}
button{display:block;width:100%;margin-top:1.75rem;padding:.8rem 1rem;font:inherit;font-weight:600;color:#fff;background:#1f883d;border:0;border-radius:8px;cursor:pointer}
button:focus-visible{outline:3px solid #0969da;outline-offset:2px}
button[disabled]{background:#8c959f;cursor:progress}
.alert{padding:.85rem 1rem;border-radius:8px;margin:0 0 1.25rem;border:1px solid}
.alert-error{background:#ffebe9;border-color:#ff818266;color:#82071e}
.alert-ok{background:#dafbe1;border-color:#4ac26b66;color:#116329}
.alert p{color:inherit;margin:.25rem 0 0}
.status{min-height:1.5rem;margin:.9rem 0 0;font-size:.95rem;color:#424a53;text-align:center}
.status[data-active]::before{content:"";display:inline-block;width:.9rem;height:.9rem;margin-right:.5rem;vertical-align:-.1rem;border:2px solid #8c959f;border-top-color:#0969da;border-radius:50%;animation:spin .8s linear infinite}
@keyframes spin{to{transform:rotate(1turn)}}
code{display:block;padding:.6rem .75rem;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;font-size:.85rem;overflow-wrap:anywhere;white-space:pre-wrap;margin:.25rem 0 .75rem}
.muted{font-size:.85rem;color:#656d76;margin:1.5rem 0 0}
@media (max-width:36rem){main{margin:0;min-height:100vh;border:0;border-radius:0}}
`.trim();

/** Progressive enhancement only: while the server tests the credentials, say so and keep the button from a second submit. */
const SCRIPT = `
document.querySelector('form').addEventListener('submit', function (event) {
  var button = event.target.querySelector('button');
  var status = document.getElementById('status');
  var provider = event.target.getAttribute('data-provider');
  button.disabled = true;
  status.setAttribute('data-active', '');
  var started = Date.now();
  var tick = function () {
    var seconds = Math.round((Date.now() - started) / 1000);
    status.textContent = 'Testing the connection with ' + provider + (seconds > 1 ? '… ' + seconds + ' s' : '…');
  };
  tick();
  setInterval(tick, 1000);
});
`.trim();

/** How a choice reads on the page; its value stays the config value. */
const CHOICE_LABELS: Record<string, string> = {
  starttls: 'STARTTLS (usually port 587)',
  tls: 'TLS from the start (usually port 465)',
  none: 'None: unencrypted, local servers only',
  us: 'US (api.mailgun.net)',
  eu: 'EU (api.eu.mailgun.net)',
};

const page = (title: string, body: string, script?: string): HtmlPage => ({ title, style: STYLE, body, ...(script ? { script } : {}) });

function input(setting: ProviderSetting, value: string, error: string | undefined): string {
  const id = `field-${setting.key}`;
  const described = [setting.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = `id="${id}" name="${escapeHtml(setting.key)}"${setting.required ? ' required' : ''}${error ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}`;
  let control: string;
  if (setting.kind === 'choice') {
    const options = (setting.choices ?? []).map(
      (choice) => `<option value="${escapeHtml(choice)}"${choice === value ? ' selected' : ''}>${escapeHtml(CHOICE_LABELS[choice] ?? choice)}</option>`,
    );
    control = `<select ${common}>${setting.required ? '' : '<option value="">—</option>'}${options.join('')}</select>`;
  } else if (setting.secret) {
    // Secrets are never written back into the page, not even after a failed test.
    control = `<input ${common} type="password" autocomplete="off" spellcheck="false">`;
  } else {
    const type = setting.kind === 'port' ? ' type="number" min="1" max="65535" inputmode="numeric"' : ' type="text" spellcheck="false" autocapitalize="off"';
    control = `<input ${common}${type} value="${escapeHtml(value)}">`;
  }
  return [
    `<label for="${id}">${escapeHtml(setting.label)}${setting.required ? '' : ' <span class="optional">(optional)</span>'}</label>`,
    control,
    setting.hint ? `<p class="hint" id="${id}-hint">${escapeHtml(setting.hint)}</p>` : '',
    error ? `<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>` : '',
  ].join('\n');
}

/** The credentials form: the provider's inputs named after its config keys, posting back to the same link. */
export function setupFormPage(view: SetupFormView, csrfToken: string): HtmlPage {
  const provider = escapeHtml(view.provider.title);
  const heading = view.purpose === 'create' ? `Connect ${provider}` : `Replace the ${provider} credentials`;
  const failure = view.testFailure
    ? `<div class="alert alert-error" role="alert"><strong>The connection test did not pass.</strong><p>${escapeHtml(view.testFailure)}</p><p>${
        view.attemptsLeft === 1 ? 'One more try is left on this link.' : `${view.attemptsLeft} more tries are left on this link.`
      }</p></div>`
    : '';
  const fields = view.provider.settings.map((setting) => input(setting, view.values[setting.key] ?? '', view.fieldErrors[setting.key])).join('\n');
  const until = view.expiresAt.toISOString().slice(11, 16);
  return page(
    `${view.purpose === 'create' ? `Connect ${view.provider.title}` : `Replace ${view.provider.title} credentials`} · ${view.workspaceName}`,
    `<p class="eyebrow">${escapeHtml(view.workspaceName)} · email delivery</p>
<h1>${heading}</h1>
<p>${view.provider.name === 'custom-smtp' ? 'Enter your SMTP server’s settings.' : `Enter the credentials of your ${provider} account.`} We test them before saving anything.</p>
<div class="sender">Connection <strong>${escapeHtml(view.connectionName)}</strong> sends as <strong>${escapeHtml(view.sender.name)}</strong> &lt;${escapeHtml(view.sender.email)}&gt;</div>
${failure}
<form method="post" data-provider="${provider}" novalidate>
<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">
${fields}
<button type="submit">Test and save</button>
<p class="status" id="status" role="status" aria-live="polite"></p>
</form>
<p class="muted">Credentials are encrypted as soon as they arrive and are never shown again, not even to you. This link works once and until ${until} UTC.</p>`,
    SCRIPT,
  );
}

/** What each provider needs to send us bounces and complaints, beside the URL. */
function feedbackInstructions(view: SetupDoneView, url: string): string {
  const token = `<code>${escapeHtml(view.feedback.token)}</code>`;
  const endpoint = `<code>${escapeHtml(url)}</code>`;
  switch (view.provider.name) {
    case 'postmark':
      return `<p>In Postmark, add a webhook for Bounce and Spam Complaint events with this URL, and turn on basic authentication with the username <strong>postline</strong> and this password:</p>${endpoint}${token}`;
    case 'brevo':
      return `<p>In Brevo, add a transactional webhook for hard bounces, soft bounces and complaints with this URL and a bearer token authentication using this token:</p>${endpoint}${token}`;
    case 'amazon-ses': {
      const withToken = url.replace(/^(https?:\/\/)/, `$1feedback:${encodeURIComponent(view.feedback.token)}@`);
      return `<p>In Amazon SNS, subscribe this HTTPS endpoint (it carries its password) to the topic your SES configuration set publishes bounces and complaints to; the subscription is confirmed automatically:</p><code>${escapeHtml(withToken)}</code>`;
    }
    case 'custom-smtp':
      return '<p>Custom SMTP servers report bounces by email, which this connection does not read.</p>';
    default:
      return `<p>In ${escapeHtml(view.provider.title)}, send bounce and complaint events to this URL. Events are accepted only if you entered the webhook signing key on this page:</p>${endpoint}`;
  }
}

export function setupDonePage(view: SetupDoneView, publicBaseUrl: string): HtmlPage {
  return page(
    `Connection ready · ${view.workspaceName}`,
    `<p class="eyebrow">${escapeHtml(view.workspaceName)} · email delivery</p>
<div class="alert alert-ok" role="status"><strong>The connection works and is saved.</strong><p>${escapeHtml(view.connectionName === view.provider.title ? view.connectionName : `${view.connectionName} (${view.provider.title})`)} can now send email for ${escapeHtml(view.workspaceName)}.</p></div>
<h2>Bounces and complaints</h2>
${feedbackInstructions(view, `${publicBaseUrl}${view.feedback.path}`)}
<p class="muted">Copy what you need now: this page is not shown again. You can close it.</p>`,
  );
}

const CLOSED: Record<'completed' | 'failed' | 'expired' | 'invalid' | 'unverified', { title: string; text: string }> = {
  completed: { title: 'This link was already used', text: 'The connection was set up with it. Ask for a new setup link to change the credentials again.' },
  failed: {
    title: 'This setup link stopped working',
    text: 'The connection test failed too many times. Check the credentials in your provider’s console, then ask for a new setup link.',
  },
  expired: { title: 'This setup link expired', text: 'Setup links work for a short time only. Ask for a new one (the API renews a setup session).' },
  invalid: { title: 'This link is not valid', text: 'The setup link may have been copied incompletely. Use the full link you were given.' },
  unverified: {
    title: 'The form could not be checked',
    text: 'Nothing was saved. Open the setup link again in this browser (with cookies allowed) and submit the form from there.',
  },
};

export function setupClosedPage(state: keyof typeof CLOSED): HtmlPage {
  const { title, text } = CLOSED[state];
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>`);
}

/** How to connect a provider, for a person sent here by a `setup_url` (the API has no dashboard). */
export function connectionsGuidePage(): HtmlPage {
  return page(
    'Connect an email delivery provider',
    `<p class="eyebrow">Email delivery</p>
<h1>Connect an email delivery provider</h1>
<p>Sending needs a delivery connection: custom SMTP, Amazon SES, Postmark, SendGrid, Mailgun, Resend or Brevo. Credentials are never sent to the API; they are entered on a one-time page.</p>
<h2>1. Start a setup session</h2>
<code>POST /v1/email-delivery-connection-setup-sessions
{"name": "Main", "provider": "custom-smtp", "from_email": "news@example.com", "from_name": "News"}</code>
<p>It needs a key with the <strong>email_delivery_connections:write</strong> scope (the Email Delivery Setup work profile).</p>
<h2>2. Open its setup_url</h2>
<p>The answer holds a <strong>setup_url</strong> that works once, for 30 minutes. Whoever holds the provider credentials opens it, enters them, and watches them being tested before they are saved.</p>
<h2>3. Check the result</h2>
<p><strong>GET /v1/email-delivery-connection-setup-sessions/{id}</strong> reads <strong>completed</strong> with the new <strong>connection_id</strong>. Then fetch the capabilities again: the operations that send email are available.</p>`,
  );
}
