/**
 * README's "Email in five requests", "A broadcast in five requests" and "Forms in five requests", run as written: the fenced blocks marked
 * `sh email-walkthrough` / `sh forms-walkthrough` go to bash unchanged, against the built APIs on free loopback ports
 * with fresh databases and demo keys made by the admin CLI (as npm start makes them). The blocks marked `…-setup` must
 * set exactly the variables the walkthrough reads, to npm start's URL; the test supplies its own values instead.
 * A `curl` shell function records every call (step, arguments, status, body) and passes its output through unchanged,
 * so each numbered step (`# N. …`) is checked by what it sent and what it got.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, SmtpSink } from '@shared/testing';
import { adminCli, BuiltAppsEnvironment, builtAppsEnvironment, BuiltDeployable, requireBuilt, startBuiltDeployable } from '../smoke/built-deployable';
import { codeBlock, README, section } from './readme';

interface Call {
  args: string[];
  status: number;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

interface Step {
  title: string;
  calls: Call[];
  stdout: string;
}

/** Variable name → value assigned by a setup block (`NAME=value   # comment`). */
function assignments(setup: string): Record<string, string> {
  const lines = setup.split('\n').filter((line) => line.trim() !== '');
  return Object.fromEntries(
    lines.map((line) => {
      const [, name, value] = /^([A-Z_]+)=(\S+)(\s+#.*)?$/.exec(line) ?? [];
      if (!name) throw new Error(`not a plain assignment in a walkthrough setup block: ${line}`);
      return [name, value];
    }),
  );
}

/** Records each curl call in $TRACE (arguments, headers, body) and writes the body on as curl would. */
const CURL_RECORDER = `
curl() {
  local n=$(( $(cat "$TRACE/count") + 1 ))
  echo "$n" > "$TRACE/count"
  local call="$TRACE/$(printf '%03d' "$n")-$STEP"
  printf '%s\\n' "$@" > "$call.args"
  command curl --dump-header "$call.headers" "$@" | tee "$call.body"
}
`;

/** Runs a walkthrough block in bash, one numbered step after another, and returns what each step sent, got and printed. */
async function runWalkthrough(block: string, env: Record<string, string>): Promise<Step[]> {
  const parts = block.split(/^# (?=\d+\. )/m).slice(1);
  if (parts.length !== 5) throw new Error(`expected steps "# 1. …" to "# 5. …" in the walkthrough, found ${parts.length}`);
  const steps = parts.map((part) => ({ title: part.slice(0, part.indexOf('\n')), script: part.slice(part.indexOf('\n') + 1) }));
  const script = [
    'set -euo pipefail',
    CURL_RECORDER,
    'echo 0 > "$TRACE/count"',
    ...steps.map(({ script }, index) => `STEP=${index + 1}\nprintf '\\n@@step ${index + 1}\\n'\n${script}`),
  ].join('\n');
  const trace = mkdtempSync(path.join(tmpdir(), 'readme-walkthrough-'));
  try {
    const bash = spawn('bash', ['-c', script], { cwd: trace, env: { ...process.env, ...env, TRACE: trace }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (chunk) => (stdout += chunk));
    bash.stderr.on('data', (chunk) => (stderr += chunk));
    // A paging loop whose has_more never turns false would run forever: stop it and show how far it got.
    const hung = setTimeout(() => bash.kill('SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => bash.once('exit', resolve));
    clearTimeout(hung);
    if (code !== 0) throw new Error(`the walkthrough stopped (exit code ${code})\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
    const printed = stdout.split(/^@@step \d+\n/m).slice(1);
    const files = readdirSync(trace);
    return steps.map(({ title }, index) => ({
      title,
      stdout: printed[index],
      calls: files
        .filter((file) => file.endsWith(`-${index + 1}.args`))
        .sort()
        .map((file) => {
          const base = path.join(trace, file.replace(/\.args$/, ''));
          const statuses = [...readFileSync(`${base}.headers`, 'utf8').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)];
          const body = readFileSync(`${base}.body`, 'utf8');
          return {
            args: readFileSync(`${base}.args`, 'utf8').split('\n').slice(0, -1),
            status: Number(statuses.at(-1)?.[1]),
            body,
            json: <T>() => JSON.parse(body) as T,
          };
        }),
    }));
  } finally {
    rmSync(trace, { recursive: true, force: true });
  }
}

const statuses = (step: Step) => step.calls.map((call) => call.status);

describe('README walkthroughs, run as written', () => {
  let built: BuiltAppsEnvironment;
  const running: BuiltDeployable[] = [];

  beforeAll(async () => {
    requireBuilt(['email-api', 'forms-api', 'admin-cli']);
    const tools = await Promise.all(
      ['curl', 'jq'].map((tool) =>
        promisify(execFile)('bash', ['-c', `command -v ${tool}`]).then(
          () => tool,
          () => `${tool} (missing)`,
        ),
      ),
    );
    expect(tools).toEqual(['curl', 'jq']);
    built = await builtAppsEnvironment();
  });

  afterAll(async () => {
    await Promise.all(running.map((deployable) => deployable.stop()));
    await built?.drop();
  });

  /** A demo key from the admin CLI, as npm start makes it on the first run. */
  const demoKey = async (...args: string[]) => (await adminCli<{ api_key: string }>(built.env, ...args)).api_key;

  async function start(name: string, port?: number, extraEnv: Record<string, string> = {}): Promise<BuiltDeployable> {
    const deployable = await startBuiltDeployable(name, { ...built.env, ...extraEnv }, port);
    running.push(deployable);
    return deployable;
  }

  it('email: capabilities, a custom field, an upsert with tags, paging with starting_after, a status change', async () => {
    const walkthrough = section(README, 'Email in five requests');
    expect(assignments(codeBlock(walkthrough, 'sh email-walkthrough-setup'))).toEqual({ EMAIL_API: 'http://127.0.0.1:3000/v1', EMAIL_KEY: 'mrk_…' });
    const api = await start('email-api');
    const key = await demoKey('create-workspace', '--name', 'Demo workspace');
    const [capabilities, field, upsert, paging, status] = await runWalkthrough(codeBlock(walkthrough, 'sh email-walkthrough'), {
      EMAIL_API: `http://127.0.0.1:${api.port}/v1`,
      EMAIL_KEY: key,
    });

    expect(statuses(capabilities)).toEqual([200]);
    expect(JSON.parse(capabilities.stdout)).toMatchObject({
      workspace: { name: 'Demo workspace' },
      conventions: { pagination_cursor_param: 'starting_after' },
    });

    expect(statuses(field)).toEqual([201]);
    const fieldId = field.calls[0].json<{ data: { id: string } }>().data.id;
    expect(field.stdout.trim()).toBe(fieldId);
    expect(fieldId).toMatch(/^cf_/);

    expect(statuses(upsert)).toEqual([201]);
    expect(JSON.parse(upsert.stdout)).toEqual({
      id: expect.stringMatching(/^sub_/),
      email: 'ada@example.com',
      status: 'Active',
      tags: expect.arrayContaining(['Beta', 'Newsletter']),
      custom_fields: { [fieldId]: 'pro' },
    });

    // Five creations, then three pages of two, each after the first asking for the page after the previous one.
    expect(statuses(paging)).toEqual([201, 201, 201, 201, 201, 200, 200, 200]);
    const pages = paging.calls
      .slice(5)
      .map((call) => ({ call, page: call.json<{ data: { email: string }[]; pagination: { has_more: boolean; next_cursor: string | null } }>() }));
    expect(pages.map(({ page }) => [page.data.length, page.pagination.has_more])).toEqual([
      [2, true],
      [2, true],
      [2, false],
    ]);
    pages.slice(1).forEach(({ call }, index) => expect(call.args).toContain(`starting_after=${pages[index].page.pagination.next_cursor}`));
    const listed = pages.flatMap(({ page }) => page.data.map((subscriber) => subscriber.email));
    expect([...listed].sort()).toEqual(['ada@example.com', ...[1, 2, 3, 4, 5].map((i) => `reader${i}@example.com`)].sort());
    expect(paging.stdout.trim().split('\n')).toHaveLength(3);

    expect(statuses(status)).toEqual([200]);
    expect(JSON.parse(status.stdout)).toEqual({ email: 'ada@example.com', status: 'Unsubscribed' });
  }, 120_000);

  /**
   * The delivery connection npm start makes for the demo workspace, made the same way: a setup session, then its
   * page read for the CSRF token and posted with the sink's settings.
   */
  async function connectToSink(apiPort: number, key: string, sinkPort: number): Promise<void> {
    const base = `http://127.0.0.1:${apiPort}`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const started = await fetch(`${base}/v1/email-delivery-connection-setup-sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Local mail sink', provider: 'custom-smtp', from_email: 'demo@postline.test', from_name: 'Postline demo' }),
    });
    const pagePath = new URL(((await started.json()) as { data: { setup_url: string } }).data.setup_url).pathname;
    const page = await fetch(`${base}${pagePath}`);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const form = new URLSearchParams({ csrf_token: csrf, host: '127.0.0.1', port: String(sinkPort), secure_mode: 'none' });
    const saved = await fetch(`${base}${pagePath}`, {
      method: 'POST',
      headers: { cookie: page.headers.get('set-cookie')?.split(';')[0] ?? '', 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    expect(saved.status).toBe(200);
  }

  it('broadcast: three subscribers, a draft, preflight, send, progress watched to sent', async () => {
    requireBuilt(['email-send-worker']);
    const walkthrough = section(README, 'A broadcast in five requests');
    expect(assignments(codeBlock(walkthrough, 'sh broadcast-walkthrough-setup'))).toEqual({ EMAIL_API: 'http://127.0.0.1:3000/v1', EMAIL_KEY: 'mrk_…' });
    const sink = new SmtpSink();
    await sink.start();
    try {
      const port = await freePort();
      const api = await start('email-api', port, { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
      await start('email-send-worker', undefined, { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
      const key = await demoKey('create-workspace', '--name', 'Demo workspace');
      await connectToSink(api.port, key, sink.port);
      const [subscribers, draft, preflight, send, progress] = await runWalkthrough(codeBlock(walkthrough, 'sh broadcast-walkthrough'), {
        EMAIL_API: `http://127.0.0.1:${api.port}/v1`,
        EMAIL_KEY: key,
      });

      expect(statuses(subscribers)).toEqual([201, 201, 201]);
      expect(statuses(draft)).toEqual([201]);
      expect(draft.stdout.trim()).toMatch(/^brd_/);
      expect(statuses(preflight)).toEqual([200]);
      expect(JSON.parse(preflight.stdout)).toEqual({ recipient_estimate: 3, blocking_issues: [] });
      expect(statuses(send)).toEqual([202]);
      expect(JSON.parse(send.stdout)).toEqual({ status: 'running', run_id: expect.stringMatching(/^brun_/) });
      expect(new Set(statuses(progress))).toEqual(new Set([200]));
      expect(JSON.parse(progress.stdout)).toEqual({ phase: 'sent', accepted: 3, percent_complete: 100 });

      // One personalised message per subscriber at the sink.
      const received = sink.received.map((mail) => ({ to: mail.to, subject: /^Subject: (.*)\r$/m.exec(mail.raw)?.[1] }));
      expect(received.sort((a, b) => a.to[0].localeCompare(b.to[0]))).toEqual([
        { to: ['ada@example.org'], subject: 'Hello Ada' },
        { to: ['grace@example.org'], subject: 'Hello Grace' },
        { to: ['linus@example.org'], subject: 'Hello Linus' },
      ]);
    } finally {
      await sink.stop();
    }
  }, 180_000);

  it('forms: a draft, a second step with its field, publish, an answer, the answers read back', async () => {
    const walkthrough = section(README, 'Forms in five requests');
    expect(assignments(codeBlock(walkthrough, 'sh forms-walkthrough-setup'))).toEqual({ FORMS_API: 'http://127.0.0.1:3100/api/v1', FORMS_KEY: 'fsk_…' });
    // The hosted form's URL is built from FORMS_PUBLIC_BASE_URL, so it points at this port as npm start's does at 3100.
    const port = await freePort();
    const api = await start('forms-api', port, { FORMS_PUBLIC_BASE_URL: `http://127.0.0.1:${port}` });
    const key = await demoKey('forms:create-account', '--email', 'demo@example.com', '--workspace-name', 'Demo forms');
    const [draft, addStep, publish, answer, answers] = await runWalkthrough(codeBlock(walkthrough, 'sh forms-walkthrough'), {
      FORMS_API: `http://127.0.0.1:${api.port}/api/v1`,
      FORMS_KEY: key,
    });

    expect(statuses(draft)).toEqual([201]);
    expect(draft.stdout.trim()).toMatch(/^frm_/);

    expect(statuses(addStep)).toEqual([201]);
    expect(JSON.parse(addStep.stdout)).toEqual({ draft_revision: 1, step: 'Anything else?' });

    expect(statuses(publish)).toEqual([200]);
    const publicUrl = publish.stdout.trim();
    expect(publicUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/f/pub_`));
    const page = await fetch(publicUrl);
    expect({ status: page.status, html: (await page.text()).includes('Anything else?') }).toEqual({ status: 200, html: true });

    expect(statuses(answer)).toEqual([201]);
    expect(JSON.parse(answer.stdout)).toEqual({ id: expect.stringMatching(/^sbm_/), thank_you: expect.any(String) });

    expect(statuses(answers)).toEqual([200]);
    expect(JSON.parse(answers.stdout)).toEqual({ fld_email: 'ada@example.com', fld_nps: 9, fld_comments: 'Lovely' });
  }, 120_000);
});
