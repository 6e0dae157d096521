#!/usr/bin/env node
// Database tooling for the Prisma schemas in prisma/<service>/ -- works without Prisma's native
// schema-engine binary. Logic lives in tools/db/.
//
//   node scripts/db.mjs generate [--service email|forms|all]
//   node scripts/db.mjs migrate  [--service email|forms|all] [--url URL]
//   node scripts/db.mjs diff     --name <name> [--service email|forms|all] [--url URL]
//   node scripts/db.mjs diff     --check [--service ...]   (exit 1 if schema.prisma has unmigrated changes)
//   node scripts/db.mjs resolve  --service S (--rolled-back NAME | --applied NAME) [--url URL]
//
// Database URLs: --url, else $EMAIL_DATABASE_URL / $FORMS_DATABASE_URL,
// else postgresql://postgres@127.0.0.1:5432/<service>. Set DB_DEBUG=1 for schema-engine logs.
import { parseArgs } from 'node:util';

import { selectServices, UsageError } from '../tools/db/services.mjs';

const USAGE = `usage:
  node scripts/db.mjs generate [--service email|forms|all]
  node scripts/db.mjs migrate  [--service email|forms|all] [--url URL]
  node scripts/db.mjs diff     --name <name> [--service email|forms|all] [--url URL]
  node scripts/db.mjs diff     --check [--service email|forms|all] [--url URL]
  node scripts/db.mjs resolve  --service email|forms (--rolled-back NAME | --applied NAME) [--url URL]
      (recover from a failed migration, like \`prisma migrate resolve\`)

URLs default to $EMAIL_DATABASE_URL / $FORMS_DATABASE_URL, then postgresql://postgres@127.0.0.1:5432/<service>.
--url is only allowed together with a single --service.`;

const log = (msg) => process.stderr.write(`${msg}\n`);
const debug = process.env.DB_DEBUG ? (msg) => process.stderr.write(`[debug] ${msg}\n`) : () => {};

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      service: { type: 'string', default: 'all' },
      url: { type: 'string' },
      name: { type: 'string' },
      check: { type: 'boolean', default: false },
      'rolled-back': { type: 'string' },
      applied: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...extra] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (extra.length) throw new UsageError(`unexpected argument: ${extra[0]}`);
  const services = selectServices(values.service);
  if (values.url && services.length !== 1) throw new UsageError('--url needs --service email or --service forms');
  const started = performance.now();
  const total = () => `${((performance.now() - started) / 1000).toFixed(2)}s`;

  switch (command) {
    case 'generate': {
      const { generateService } = await import('../tools/db/generate.mjs');
      const results = await Promise.allSettled(services.map((svc) => generateService(svc)));
      let failed = 0;
      results.forEach((r, i) => {
        const svc = services[i];
        if (r.status === 'fulfilled') {
          const line = r.value.output.split('\n').find((l) => l.includes('Generated')) ?? 'generated';
          log(`${svc.name}: ${line.replace(/^[^A-Za-z]+/, '').trim()} [${r.value.secs}s]`);
        } else {
          failed++;
          log(r.reason.message);
        }
      });
      log(`generate: ${failed ? `${failed} failed` : 'done'} in ${total()}`);
      return failed ? 1 : 0;
    }
    case 'migrate': {
      const { migrateService } = await import('../tools/db/migrate.mjs');
      for (const svc of services) await migrateService(svc, { url: values.url, log, debug });
      log(`migrate: done in ${total()}`);
      return 0;
    }
    case 'diff': {
      if (values.name && values.check) throw new UsageError('use either --name or --check');
      const { diffService } = await import('../tools/db/diff.mjs');
      let changed = false;
      for (const svc of services) {
        const r = await diffService(svc, { name: values.name, url: values.url, check: values.check, log, debug });
        changed ||= r.changed;
      }
      log(`diff: done in ${total()}`);
      return values.check && changed ? 1 : 0;
    }
    case 'resolve': {
      const rolledBack = values['rolled-back'];
      const { applied } = values;
      if (services.length !== 1) throw new UsageError('resolve needs --service email or --service forms');
      if (!rolledBack === !applied) throw new UsageError('resolve needs exactly one of --rolled-back NAME or --applied NAME');
      const { resolveService } = await import('../tools/db/migrate.mjs');
      await resolveService(services[0], { url: values.url, rolledBack, applied, log, debug });
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

// Exit explicitly once done: the wasm schema engine leaves a timer behind (its 10s advisory-lock
// timeout) that would otherwise keep the process alive for ~10s after a migration.
const exit = (code) => process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));

main(process.argv.slice(2)).then(exit, (err) => {
  if (
    err instanceof UsageError ||
    err?.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
    err?.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ||
    err?.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
  ) {
    log(`db: ${err.message}\n\n${USAGE}`);
    return exit(2);
  }
  log(`db: error: ${err?.message ?? err}`);
  if (process.env.DB_DEBUG && err?.stack) log(err.stack);
  return exit(1);
});
