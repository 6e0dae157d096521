// The development mail sink npm start runs: an SMTP server on 127.0.0.1 that accepts every message (any login) and
// keeps it as a .eml file under .data/mail/, so sends can be watched without delivering anything anywhere.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.MAIL_SINK_PORT ?? 1025);
const directory = path.resolve(process.env.MAIL_SINK_DIR ?? '.data/mail');
mkdirSync(directory, { recursive: true });
let stored = 0;

const server = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  authOptional: true,
  allowInsecureAuth: true,
  logger: false,
  onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
  onData: (stream, _session, callback) => {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      stored += 1;
      writeFileSync(path.join(directory, `${Date.now()}-${String(stored).padStart(6, '0')}.eml`), Buffer.concat(chunks));
      // A count, never addresses: the log stays free of personal data.
      if (stored === 1 || stored % 100 === 0) process.stdout.write(`stored ${stored} message(s) in ${directory}\n`);
      callback();
    });
  },
});

server.listen(port, '127.0.0.1', () => process.stdout.write(`listening on smtp://127.0.0.1:${port}\n`));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
