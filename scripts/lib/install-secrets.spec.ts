import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '@shared/config';

const envModule = path.join(__dirname, 'env.mjs');

/** Runs installSecrets in a fresh Node process (env.mjs is an ES module for the npm entry points). */
function installSecrets(file: string, env: Record<string, string> = {}): Record<string, string> {
  const script = `const { installSecrets } = await import(${JSON.stringify(envModule)});
process.stdout.write(JSON.stringify(installSecrets(${JSON.stringify(file)}, ${JSON.stringify(env)})));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('npm start: per-install secrets', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'postline-secrets-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('generates strong secrets on first start, keeps them owner-only, and reuses them afterwards', () => {
    const file = path.join(dir, '.data/secrets.json');
    const first = installSecrets(file);
    expect(first.CURSOR_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.ENCRYPTION_KEY).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.CURSOR_SECRET).not.toBe(first.ENCRYPTION_KEY);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(installSecrets(file)).toEqual(first);
    expect(installSecrets(path.join(dir, 'other.json')).CURSOR_SECRET).not.toBe(first.CURSOR_SECRET);
    // What start passes to the children is accepted even in production.
    expect(loadConfig({ NODE_ENV: 'production', ...first }).cursorSecret).toBe(first.CURSOR_SECRET);
  });

  it('prefers a configured secret and does not store it', () => {
    const file = path.join(dir, 'secrets.json');
    const configured = 'configured-by-the-operator-0123456789abcdef';
    const secrets = installSecrets(file, { CURSOR_SECRET: configured });
    expect(secrets.CURSOR_SECRET).toBe(configured);
    expect(readFileSync(file, 'utf8')).not.toContain(configured);
  });
});
