#!/usr/bin/env node
// npm run fuzz:long: every fast-check property test, run long with fresh random seeds.
//
//   FUZZ_RUNS=1000   runs per property (CI runs each test's small default)
//   FUZZ_SEED=random a fresh seed for every property (default here); a number replays a run
//   FUZZ_PATH=…      with FUZZ_SEED, replays the one counterexample a failure reported
//
// A failure prints the seed and path to replay it. Extra args go to jest (e.g. -t 'delete form').
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { bin, install, log, prepare, requireServices, root, run } from './lib/env.mjs';

const TEST_FILE = /\.(spec|int-spec|e2e-spec)\.ts$/;

/** Test files under `dir` that import fast-check. */
function propertyTests(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (['node_modules', 'dist', 'generated'].includes(entry)) return [];
    if (statSync(full).isDirectory()) return propertyTests(full);
    return TEST_FILE.test(entry) && /from ['"]fast-check['"]/.test(readFileSync(full, 'utf8')) ? [path.relative(root, full)] : [];
  });
}

const env = { ...process.env, NODE_ENV: 'test', FUZZ_SEED: process.env.FUZZ_SEED || 'random', FUZZ_RUNS: process.env.FUZZ_RUNS || '1000' };
const files = ['apps', 'libs', 'tools'].flatMap((dir) => propertyTests(path.join(root, dir)));

await requireServices();
if (!existsSync(bin('jest'))) install();
prepare({ build: false });
log(
  `▸ fuzzing ${files.length} files with FUZZ_SEED=${env.FUZZ_SEED} FUZZ_RUNS=${env.FUZZ_RUNS}${env.FUZZ_PATH ? ` FUZZ_PATH=${env.FUZZ_PATH}` : ''}:\n  ${files.join('\n  ')}`,
);
run(bin('jest'), ['--ci', ...files, ...process.argv.slice(2)], { env });
