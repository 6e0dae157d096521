import fc from 'fast-check';

/** The seed property tests use unless FUZZ_SEED says otherwise: CI runs are reproducible. */
export const DEFAULT_FUZZ_SEED = 20_261_123;

/** `numRuns` for a property: FUZZ_RUNS when set (the long run), else the test's own default. */
export function fuzzRuns(defaultRuns: number): number {
  const runs = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(runs) && runs > 0 ? runs : defaultRuns;
}

/** Whether a test may check how often a branch was taken: not when replaying one counterexample or running only a few. */
export function fuzzCountsApply(runs: number): boolean {
  return !process.env.FUZZ_PATH && runs >= 20;
}

function fuzzSeed(): number {
  const raw = process.env.FUZZ_SEED;
  if (raw === 'random') return (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0;
  if (raw === undefined || raw === '') return DEFAULT_FUZZ_SEED;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be an integer or "random", not ${JSON.stringify(raw)}`);
  return seed;
}

/**
 * fast-check parameters: seed from FUZZ_SEED (default DEFAULT_FUZZ_SEED, `random` for a fresh one), runs from
 * FUZZ_RUNS, and FUZZ_PATH to replay one counterexample. A failure reports the seed and path and how to replay them.
 */
export function fuzzParameters<T>(defaultRuns: number): fc.Parameters<T> {
  const path = process.env.FUZZ_PATH || undefined;
  return {
    seed: fuzzSeed(),
    numRuns: fuzzRuns(defaultRuns),
    ...(path ? { path, endOnFailure: true } : {}),
    includeErrorInReport: true,
    reporter: (details) => {
      if (!details.failed) return;
      const replay = `Replay: FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath ?? ''} (with the same FUZZ_RUNS) and this test's name in jest -t`;
      throw new Error(`${fc.defaultReportMessage(details)}\n${replay}`);
    },
  };
}

/** Header-safe text (tab, printable ASCII, Latin-1): Node refuses to send anything else. */
export const headerText = (maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      fc.constant('\t'),
      fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
    ),
    maxLength,
  });

/** No key, a fresh one, one of three reused ones (same key, another body or path), or a malformed one. */
export const idempotencyKeys = fc.oneof(
  fc.constant(undefined),
  fc.uuid(),
  fc.constantFrom('fuzz-reused-1', 'fuzz-reused-2', 'fuzz-reused-3'),
  fc.oneof(headerText(20), fc.constant(''), fc.constant('k'.repeat(256)), fc.constant('with space')),
);

/** Path segments a router, a percent-decoder or a database may choke on. */
export const malformedPathSegments = fc.oneof(
  fc.constantFrom(
    '%ff',
    '%',
    '%z',
    '%zz',
    '%e2%82',
    '%c0%ae',
    '%ed%a0%80',
    '%f4%90%80%80',
    '%00',
    '%01',
    '%0a',
    '%0d%0a',
    '%7f',
    '%1b%5b31m',
    '..',
    '%2e%2e',
    '.',
    '%2f',
    '%5c',
    '..%2f..%2f',
    '%25',
    '%u0041',
    'id_%00',
    '%ef%bf%bf',
    '%f0%9f%92%a9',
    '\u00ff\u00e9',
    '%C3%A9',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(encodeURIComponent),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 4 }).map(encodeURIComponent),
  fc.integer({ min: 101, max: 12_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 4 }).map((n) => Array(n).fill('..').join('/')),
);

/** `{error:{type,code,message}}` with three non-empty strings. */
export function isErrorEnvelope(body: unknown): boolean {
  const error = (body as { error?: Record<string, unknown> } | undefined)?.error;
  return Boolean(error) && ['type', 'code', 'message'].every((k) => typeof error![k] === 'string' && error![k].length > 0);
}
