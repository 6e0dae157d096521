/**
 * For the benchmark tests: collects what a benchmark writes on stdout (its JSON lines) and silences
 * stderr during each test. Call at describe level; `results()` stops collecting and parses the lines.
 */
export function captureBenchmarkOutput(): { results(): Array<Record<string, unknown>> } {
  let lines: string[] = [];
  let write: jest.SpyInstance;
  beforeEach(() => {
    lines = [];
    write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => jest.restoreAllMocks());
  return {
    results: () => {
      write.mockRestore();
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}
