import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer, SMTPServerOptions } from 'smtp-server';

export type SmtpRejection = { stage: 'mail' | 'rcpt' | 'data'; code: number; text: string };
export type SmtpSinkBehaviour = { reject?: SmtpRejection; afterData?: 'destroy' | 'silence' };

/**
 * A local SMTP sink on 127.0.0.1 (random port) for mail tests: keeps what it receives and answers as told (a refusal
 * at MAIL, RCPT or DATA; dropping or never answering after DATA). With credentials it requires AUTH.
 */
export class SmtpSink {
  readonly received: { from: string; to: string[]; raw: string }[] = [];
  behaviour: SmtpSinkBehaviour = {};
  private readonly sockets = new Set<Socket>();
  private server!: SMTPServer;
  port = 0;

  constructor(private readonly credentials?: { user: string; pass: string }) {}

  async start(): Promise<void> {
    const replyError = (rejection: SmtpRejection) => Object.assign(new Error(rejection.text), { responseCode: rejection.code });
    const options: SMTPServerOptions = {
      disabledCommands: this.credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
      authOptional: !this.credentials,
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.credentials?.user && auth.password === this.credentials?.pass) callback(null, { user: auth.username });
        else callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
      },
      onMailFrom: (_address, _session, callback) => {
        const reject = this.behaviour.reject;
        callback(reject?.stage === 'mail' ? replyError(reject) : undefined);
      },
      onRcptTo: (_address, _session, callback) => {
        const reject = this.behaviour.reject;
        callback(reject?.stage === 'rcpt' ? replyError(reject) : undefined);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const reject = this.behaviour.reject;
          if (this.behaviour.afterData === 'destroy') {
            for (const socket of this.sockets) socket.destroy();
            return;
          }
          if (this.behaviour.afterData === 'silence') return;
          if (reject?.stage === 'data') return callback(replyError(reject));
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            raw,
          });
          callback();
        });
      },
    };
    this.server = new SMTPServer(options);
    // smtp-server keeps its sockets private: collect them from the underlying net.Server.
    (this.server as unknown as { server: { on(event: 'connection', listener: (socket: Socket) => void): void } }).server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
