import 'reflect-metadata';
import { audienceBenchmark } from './audience';
import { authOverheadBenchmark } from './auth-overhead';
import { broadcastPrepareBenchmark } from './broadcast-prepare';
import { broadcastSendBenchmark } from './broadcast-send';
import { Benchmark, installSignalHandlers, log, UsageError } from './cli';
import { cpuProfileUtility } from './cpu-profile';
import { dropDbUtility } from './drop-db';
import { emailRenderFillBenchmark } from './email-render-fill';
import { emailTrackingBenchmark } from './email-tracking';
import { formsAbuseBenchmark } from './forms-abuse';
import { formsHostedPageBenchmark } from './forms-hosted-page';
import { formsSubmissionBenchmark } from './forms-submission';
import { formsXlsxExportBenchmark } from './forms-xlsx-export';
import { httpPlatformBenchmark } from './http-platform';
import { seedBenchmark } from './seed';
import { subscribersListBenchmark } from './subscribers-list';
import { subscribersUpsertBenchmark } from './subscribers-upsert';
import { subscriberImportBenchmark } from './subscriber-import';
import { subscriberExportBenchmark } from './subscriber-export';
import { subscriberImportUploadBenchmark } from './subscriber-import-upload';
import { webhooksFanoutBenchmark } from './webhooks-fanout';

/**
 * `node bench/dist/main.js <name> [options]` (normally through `npm run bench -- <name> [options]`,
 * which builds first). Results: one JSON line each on stdout. Everything else: stderr.
 */
export const BENCHMARKS: Benchmark[] = [
  seedBenchmark,
  httpPlatformBenchmark,
  subscribersListBenchmark,
  subscribersUpsertBenchmark,
  authOverheadBenchmark,
  audienceBenchmark,
  formsHostedPageBenchmark,
  formsSubmissionBenchmark,
  formsAbuseBenchmark,
  formsXlsxExportBenchmark,
  emailRenderFillBenchmark,
  emailTrackingBenchmark,
  broadcastPrepareBenchmark,
  broadcastSendBenchmark,
  subscriberImportBenchmark,
  subscriberExportBenchmark,
  subscriberImportUploadBenchmark,
  webhooksFanoutBenchmark,
  dropDbUtility,
  cpuProfileUtility,
];

function list(out: NodeJS.WritableStream = process.stdout): void {
  const width = Math.max(...BENCHMARKS.map((b) => b.name.length)) + 2;
  const line = (b: Benchmark) => `  ${b.name.padEnd(width)}${b.summary}\n`;
  out.write(
    `benchmarks (npm run bench -- <name> --help):\n${BENCHMARKS.filter((b) => !b.utility)
      .map(line)
      .join('')}` +
      `utilities:\n${BENCHMARKS.filter((b) => b.utility)
        .map(line)
        .join('')}`,
  );
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'list' || name === '--help' || name === '-h') {
    list(name ? process.stdout : process.stderr);
    return name ? 0 : 2;
  }
  const benchmark = BENCHMARKS.find((b) => b.name === name);
  if (!benchmark) {
    log(`unknown benchmark "${name}"`);
    list(process.stderr);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`usage: npm run bench -- ${benchmark.usage}\n`);
    return 0;
  }
  installSignalHandlers();
  try {
    await benchmark.run(args);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      log(`${name}: ${error.message}\nusage: npm run bench -- ${benchmark.usage}`);
      return 2;
    }
    log(`${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  }
}

// Exit explicitly once stdout is flushed: a stray handle (a pool, a timer) must not keep a finished run alive.
void main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
