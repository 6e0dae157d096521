/**
 * Runs a built server (BENCH_PROFILE_TARGET) in this process with a CPU profiler that the benchmark
 * switches on and off with SIGUSR2, so a profile covers exactly the measured phase (not boot, not the
 * warm-up). `node --cpu-prof` cannot do that, and it is not allowed in NODE_OPTIONS either.
 *
 * The n-th stop writes `${BENCH_PROFILE_OUT}.<n>.cpuprofile` (n from 0; written to a temporary name,
 * then renamed, so a reader never sees half a file). BENCH_PROFILE_INTERVAL_US sets the sampling interval.
 * Until the first SIGUSR2 the profiler is off: the server runs as it would without this wrapper.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const target = process.env.BENCH_PROFILE_TARGET;
const out = process.env.BENCH_PROFILE_OUT;
const intervalUs = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 250);
if (!target || !out) {
  process.stderr.write('profiled-entry: BENCH_PROFILE_TARGET and BENCH_PROFILE_OUT are required\n');
  process.exit(2);
}

const session = new Session();
session.connect();
let running = false;
let written = 0;

const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));

// Toggles run one after the other, in the order the signals arrived.
let chain: Promise<void> = Promise.resolve();
process.on('SIGUSR2', () => {
  chain = chain
    .then(async () => {
      if (running) {
        const result = (await post('Profiler.stop')) as { profile: unknown };
        running = false;
        const file = `${out}.${written++}.cpuprofile`;
        writeFileSync(`${file}.tmp`, JSON.stringify(result.profile));
        renameSync(`${file}.tmp`, file);
      } else {
        await post('Profiler.enable');
        await post('Profiler.setSamplingInterval', { interval: intervalUs });
        await post('Profiler.start');
        running = true;
      }
    })
    .catch((error: unknown) => {
      process.stderr.write(`profiled-entry: ${String(error)}\n`);
    });
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
require(target);
