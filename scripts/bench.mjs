#!/usr/bin/env node
// Benchmarks (code in bench/, package @tools/bench; see bench/README.md):
//
//   npm run -s bench -- list                 what there is
//   npm run -s bench -- <name> [options]     build what <name> needs, then run it
//   npm run -s bench -- <name> --help        its options
//
// Results are JSON lines on stdout (one per result); build output and progress go to stderr, so
// `npm run -s bench -- seed --count 1000000 > seed.jsonl` keeps only results (-s hides npm's banner).
// --no-build (or BENCH_NO_BUILD=1) skips install/generate/build and runs bench/dist as it is.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { bin, install, log, root, run, toolEnv } from './lib/env.mjs';

/** What the benchmarks run: their own package (and its libs) and the apps they load-test. */
const PROJECTS = ['@tools/bench', '@apps/email-api', '@apps/forms-api', '@apps/webhook-worker', '@apps/forms-worker', '@apps/email-jobs-worker'];

function build() {
  const started = performance.now();
  if (!existsSync(bin('nx'))) install();
  // Generated Prisma clients are not committed; quick, and Nx's cache still hits when nothing changed.
  for (const service of ['email', 'forms']) run(process.execPath, ['scripts/db.mjs', 'generate', '--service', service], { quiet: true });
  run(bin('nx'), ['run-many', '-t', 'build', `--projects=${PROJECTS.join(',')}`, '--outputStyle=static', '--verbose=false'], { quiet: true });
  log(`[bench] build: ok in ${((performance.now() - started) / 1000).toFixed(1)}s`);
}

const args = process.argv.slice(2).filter((arg) => arg !== '--no-build');
if (args.length === process.argv.length - 2 && process.env.BENCH_NO_BUILD !== '1') build();

const entry = path.join(root, 'bench/dist/main.js');
if (!existsSync(entry)) {
  log(`[bench] ${path.relative(root, entry)} is missing: run without --no-build`);
  process.exit(1);
}
const child = spawn(process.execPath, [entry, ...args], { cwd: root, env: toolEnv, stdio: 'inherit' });
// Ctrl-C reaches the whole process group, the benchmark included; a SIGTERM sent to this script alone
// is passed on, so the benchmark still stops the app it started.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
