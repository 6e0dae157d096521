/**
 * The client examples of the documentation run as written: the TypeScript one with Node, the Python one with
 * python3, each taken from its served page and pointed at the test server, page through every subscriber.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { listenOnLoopback } from '@shared/testing';
import { emailApi, EmailApiHarness } from './helpers';

const run = promisify(execFile);
const PUBLIC_BASE_URL = 'https://mail.example.test';
const EMAILS = ['ada@example.com', 'grace@example.com', 'alan@example.com'];

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/** The code block labelled `label` on the page, as a reader would copy it. */
function codeOf(page: string, label: string): string {
  const match = new RegExp(`<pre aria-label="${label}"[^>]*><code>([\\s\\S]*?)</code></pre>`).exec(page);
  if (!match) throw new Error(`no code block labelled "${label}"`);
  return match[1].replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity]);
}

describe('email-api: the documentation examples run', () => {
  let h: EmailApiHarness;
  let origin: string;
  let dir: string;

  beforeAll(async () => {
    h = await emailApi({ PUBLIC_BASE_URL });
    origin = await listenOnLoopback(h.app);
    for (const email of EMAILS) await h.as().post('/v1/subscribers').send({ email }).expect(201);
    dir = mkdtempSync(path.join(tmpdir(), 'postline-docs-examples-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await h?.close();
  });

  /** The example pointed at the test server, with pages of 2 so that paging is exercised. */
  async function example(route: string, label: string): Promise<string> {
    const code = codeOf((await h.as('').get(route).expect(200)).text, label);
    expect(code).toContain(PUBLIC_BASE_URL);
    expect(code).toContain('100');
    return code.replace(PUBLIC_BASE_URL, origin).replace(/\b100\b/, '2');
  }

  const env = () => ({ PATH: process.env.PATH, POSTLINE_API_KEY: h.key });

  it('TypeScript (Node, as an ES module) prints every subscriber', async () => {
    const file = path.join(dir, 'subscribers.mjs');
    writeFileSync(file, await example('/docs/sdks/typescript', 'TypeScript example'));
    const { stdout } = await run(process.execPath, [file], { env: env(), timeout: 30_000 });
    expect(stdout.trim().split('\n').sort()).toEqual([...EMAILS].sort());
  });

  it('Python (standard library) prints every subscriber', async () => {
    const file = path.join(dir, 'subscribers.py');
    writeFileSync(file, await example('/docs/sdks/python', 'Python example'));
    const { stdout } = await run('python3', [file], { env: env(), timeout: 30_000 });
    expect(stdout.trim().split('\n').sort()).toEqual([...EMAILS].sort());
  });
});
