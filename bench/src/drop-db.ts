import { Benchmark, log, parseOptions } from './cli';
import { BENCH_DATABASE, dropBenchDatabase } from './databases';

export const dropDbUtility: Benchmark = {
  name: 'drop-db',
  summary: `drop the bench database (${BENCH_DATABASE}) and everything seeded into it`,
  usage: `drop-db [--name ${BENCH_DATABASE}]   (only pl_bench_* names)`,
  utility: true,
  async run(args) {
    const { name = BENCH_DATABASE } = parseOptions(args, { name: { type: 'string' } });
    log((await dropBenchDatabase(name)) ? `dropped database ${name}` : `no database ${name}`);
  },
};
