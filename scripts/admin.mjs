// npm run admin -- <command> [options]: builds the admin CLI when needed, then runs it (JSON on stdout).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { install, prepare, root, toolEnv } from './lib/env.mjs';

const entry = path.join(root, 'apps/admin-cli/dist/main.js');
if (!existsSync(entry)) {
  if (!existsSync(path.join(root, 'node_modules/.bin/nx'))) install();
  prepare();
}
const result = spawnSync(process.execPath, [entry, ...process.argv.slice(2)], { cwd: root, env: { ...toolEnv, LOG_LEVEL: 'silent' }, stdio: 'inherit' });
process.exit(result.status ?? 1);
