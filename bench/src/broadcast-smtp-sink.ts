import { fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * The benchmarks' SMTP sink, in a process of its own so its CPU is not the sender's: smtp-server on 127.0.0.1 that
 * accepts every message after `--delay-ms` (a provider's latency) and counts messages and distinct recipients.
 * Started with `startSmtpSink`; run directly it is the child.
 */
export interface SmtpSinkProcess {
  port: number;
  /** Messages received so far, and how many distinct recipients they went to. */
  counts(): Promise<{ messages: number; recipients: number }>;
  reset(): Promise<void>;
  stop(): Promise<void>;
}

type Request = { id: number; op: 'counts' | 'reset' };

export async function startSmtpSink(delayMs: number): Promise<SmtpSinkProcess> {
  const child = fork(path.join(__dirname, 'broadcast-smtp-sink.js'), ['--delay-ms', String(delayMs)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve(message.port));
    child.once('exit', (code) => reject(new Error(`the SMTP sink exited (${code})`)));
  });
  let next = 0;
  const ask = <T>(op: Request['op']) =>
    new Promise<T>((resolve) => {
      const id = ++next;
      const onMessage = (message: { id: number; value: T }) => {
        if (message.id !== id) return;
        child.off('message', onMessage);
        resolve(message.value);
      };
      child.on('message', onMessage);
      child.send({ id, op });
    });
  return {
    port,
    counts: () => ask('counts'),
    reset: () => ask('reset'),
    stop: async () => {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

function serve(delayMs: number): void {
  let messages = 0;
  let recipients = new Set<string>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    maxClients: 10_000,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        const done = () => {
          messages++;
          for (const rcpt of session.envelope.rcptTo) recipients.add(rcpt.address);
          callback();
        };
        if (delayMs > 0) setTimeout(done, delayMs);
        else done();
      });
    },
  });
  server.on('error', () => undefined);
  const net = (server as unknown as { server: { address(): AddressInfo } }).server;
  server.listen(0, '127.0.0.1', () => process.send?.({ port: net.address().port }));
  process.on('message', (request: Request) => {
    if (request.op === 'reset') {
      messages = 0;
      recipients = new Set();
    }
    process.send?.({ id: request.id, value: request.op === 'counts' ? { messages, recipients: recipients.size } : null });
  });
  process.on('disconnect', () => process.exit(0));
}

if (require.main === module) {
  const at = process.argv.indexOf('--delay-ms');
  serve(at > 0 ? Number(process.argv[at + 1]) : 0);
}
