// npm start: installs, generates, migrates, builds, seeds a demo on first run, then runs both APIs and
// all workers in the foreground. Ctrl-C stops everything cleanly.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { install, installSecrets, log, prepare, readJson, requireServices, root, run, toolEnv } from './lib/env.mjs';
import { DEPLOYABLES, launch, launchEnv, waitReady } from './lib/launch.mjs';

const demoFile = path.join(root, '.data/demo.json');
const emailPort = Number(process.env.EMAIL_API_PORT ?? 3000);
const formsPort = Number(process.env.FORMS_API_PORT ?? 3100);
const env = launchEnv(
  {
    ...toolEnv,
    ...installSecrets(),
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${emailPort}`,
    FORMS_PUBLIC_BASE_URL: process.env.FORMS_PUBLIC_BASE_URL ?? `http://127.0.0.1:${formsPort}`,
  },
  process.argv.slice(2),
);
const deployables = DEPLOYABLES.map((d) => ({ ...d, port: d.name === 'email-api' ? emailPort : d.name === 'forms-api' ? formsPort : d.port }));
const sinkPort = Number(process.env.MAIL_SINK_PORT ?? 1025);
// Development only: where the demo delivery connection sends (nothing leaves this machine).
const mailSink = { name: 'mail-sink', script: 'scripts/lib/mail-sink.mjs', port: sinkPort, portVar: 'MAIL_SINK_PORT' };

await requireServices();
log('▸ installing dependencies');
install();
log('▸ generating Prisma clients and building');
prepare();
log('▸ creating databases and applying migrations');
run(process.execPath, ['scripts/db.mjs', 'migrate']);

const demo = await demoAccounts();
const { stopAll } = launch([...deployables, mailSink], env);
const late = await firstNotReady(deployables);
if (late) {
  log(`✖ ${late.name} did not become ready on port ${late.port} within 30 s`);
  stopAll(1);
} else {
  await demoForm(demo);
  await demoConnection(demo);
  printBanner(demo);
}

/** Every deployable is waited for, so all their start-up lines are on screen before the banner. */
async function firstNotReady(list) {
  for (const deployable of list) if (!(await waitReady(`http://127.0.0.1:${deployable.port}/readyz`))) return deployable;
  return undefined;
}

/** Demo workspace and forms account: created on the first run, reused afterwards while they still exist. */
async function demoAccounts() {
  const saved = readJson(demoFile);
  if (saved && (await stillExists(saved))) {
    log('▸ reusing the demo accounts from .data/demo.json');
    return saved;
  }
  log('▸ creating a demo workspace and forms account');
  const admin = (...args) => {
    const result = spawnSync(process.execPath, ['apps/admin-cli/dist/main.js', ...args], { cwd: root, env: { ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8' });
    if (result.status !== 0) {
      log(result.stderr);
      process.exit(1);
    }
    return JSON.parse(result.stdout);
  };
  const demo = {
    email: admin('create-workspace', '--name', 'Demo workspace'),
    forms: admin('forms:create-account', '--email', `demo+${Date.now()}@example.com`, '--workspace-name', 'Demo forms'),
  };
  // The postal address every marketing email's footer shows (the preflight warns without one).
  admin('update-workspace', '--workspace', demo.email.workspace_id, '--address', '1 Example Street', '--city', 'Springfield', '--country', 'US');
  mkdirSync(path.dirname(demoFile), { recursive: true });
  writeFileSync(demoFile, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}

/** A published demo form, made through the API once per demo account, so the hosted page can be opened right away. */
async function demoForm(demo) {
  const api = `http://127.0.0.1:${formsPort}/api/v1`;
  const call = async (method, route, body) => {
    const response = await fetch(`${api}${route}`, {
      method,
      headers: { authorization: `Bearer ${demo.forms.api_key}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  if (demo.form && (await call('GET', `/forms/${demo.form.id}`)).status === 200) return;
  const draftSchema = {
    settings: { name: 'Demo feedback', submitButtonLabel: 'Send feedback' },
    steps: [
      {
        title: 'About you',
        fields: [
          { type: 'text', label: 'Your name', required: true },
          { type: 'email', label: 'Email', required: true },
        ],
      },
      {
        title: 'Your opinion',
        fields: [
          { type: 'nps', label: 'How likely are you to recommend us?', required: true },
          { type: 'long_text', label: 'Anything else?' },
        ],
      },
    ],
  };
  const created = await call('POST', '/forms', { draftSchema });
  const published = created.status === 201 ? await call('POST', `/forms/${created.body.data.id}/publish`, {}) : created;
  if (published.status !== 200) {
    log(`✖ could not create the demo form: ${JSON.stringify(published.body)}`);
    return;
  }
  demo.form = { id: created.body.data.id, public_url: published.body.public_url };
  writeFileSync(demoFile, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
}

/**
 * A demo delivery connection to the mail sink, made the way a person would: a setup session through the API, then
 * its browser page (read for its CSRF token, posted with the sink's settings), so credentials never touch the API.
 */
async function demoConnection(demo) {
  const api = `http://127.0.0.1:${emailPort}/v1`;
  const headers = { authorization: `Bearer ${demo.email.api_key}`, 'content-type': 'application/json' };
  if (demo.connection && (await fetch(`${api}/email-delivery-connections/${demo.connection.id}`, { headers })).status === 200) return;
  const started = await fetch(`${api}/email-delivery-connection-setup-sessions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Local mail sink', provider: 'custom-smtp', from_email: 'demo@postline.test', from_name: 'Postline demo' }),
  });
  const session = (await started.json()).data;
  const pageUrl = `http://127.0.0.1:${emailPort}${new URL(session.setup_url).pathname}`;
  const page = await fetch(pageUrl);
  const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const form = new URLSearchParams({ csrf_token: csrf, host: '127.0.0.1', port: String(sinkPort), secure_mode: 'none', username: '', password: '' });
  const saved = await fetch(pageUrl, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: form });
  const status = (await (await fetch(`${api}/email-delivery-connection-setup-sessions/${session.id}`, { headers })).json()).data;
  if (saved.status !== 200 || status.status !== 'completed') {
    log(`✖ could not set up the demo delivery connection (page answered ${saved.status}, session ${status.status})`);
    return;
  }
  demo.connection = { id: status.connection_id };
  writeFileSync(demoFile, `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
}

async function stillExists(saved) {
  const { default: pg } = await import(path.join(root, 'node_modules/pg/lib/index.js'));
  const check = async (url, sql, id) => {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      return (await client.query(sql, [id])).rowCount === 1;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  };
  return (
    (await check(
      process.env.EMAIL_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/email',
      'SELECT 1 FROM workspaces WHERE id = $1',
      saved.email?.workspace_id,
    )) &&
    (await check(process.env.FORMS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/forms', 'SELECT 1 FROM owners WHERE id = $1', saved.forms?.owner_id))
  );
}

function printBanner(demo) {
  const line = '─'.repeat(72);
  process.stdout.write(
    [
      '',
      line,
      ` Email API   http://127.0.0.1:${emailPort}/v1`,
      ` Forms API   http://127.0.0.1:${formsPort}/api/v1`,
      ` Workers     email-send 9101 · email-jobs 9102 · webhook 9103 · forms 9104 (/healthz, /readyz, /metrics)`,
      ` Mail sink   smtp://127.0.0.1:${sinkPort} keeps every message in .data/mail/${demo.connection ? ` (demo connection ${demo.connection.id})` : ''}`,
      '',
      ` Email workspace ${demo.email.workspace_id}`,
      `   API key     ${demo.email.api_key}`,
      ` Forms account ${demo.forms.owner_id} (workspace ${demo.forms.workspace_id})`,
      `   API key     ${demo.forms.api_key}`,
      ...(demo.form ? [`   Demo form   ${demo.form.public_url}`] : []),
      '',
      ` Try:  curl -s -H "Authorization: Bearer ${demo.email.api_key}" http://127.0.0.1:${emailPort}/v1/workspace`,
      `       curl -s -H "Authorization: Bearer ${demo.forms.api_key}" http://127.0.0.1:${formsPort}/api/v1/me`,
      '',
      ' The README walkthroughs start from these two lines (paste them into your shell):',
      `   EMAIL_API=http://127.0.0.1:${emailPort}/v1 EMAIL_KEY=${demo.email.api_key}`,
      `   FORMS_API=http://127.0.0.1:${formsPort}/api/v1 FORMS_KEY=${demo.forms.api_key}`,
      '',
      ' Ctrl-C stops everything.',
      line,
      '',
    ].join('\n'),
  );
}
