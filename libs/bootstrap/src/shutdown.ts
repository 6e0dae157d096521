/**
 * On SIGTERM/SIGINT: run `close` (finish in-flight requests or jobs) and exit 0; exit 1 when it fails
 * or outlasts the deadline, which is shorter than an orchestrator's grace period. Signals after the first are ignored:
 * a terminal's Ctrl-C reaches every process npm start runs, and then npm start sends each a SIGTERM too.
 */
export function exitOnSignal(service: string, timeoutMs: number, close: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const deadline = setTimeout(() => {
      process.stderr.write(`${service}: still closing ${timeoutMs} ms after ${signal}; exiting\n`);
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`${service}: shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
