import { createServer as createHttpServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/** One request a receiver took, as it arrived. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers a request: a status, optionally after a wait, and extra headers (a redirect's Location). */
export interface ReceiverAnswer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface WebhookReceiverOptions {
  /** HTTPS with a self-signed certificate for 127.0.0.1 and localhost (`ca` is its PEM). */
  tls?: boolean;
  /** Decides the answer to the nth request (0-based); 204 by default. */
  answer?: (request: ReceivedWebhook, index: number) => ReceiverAnswer;
}

let certificate: Promise<{ cert: string; private: string }> | undefined;
const loopbackCertificate = () =>
  (certificate ??= generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  }));

/** A real HTTP or HTTPS server on loopback that records the webhooks it receives. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor(
    private readonly server: Server,
    readonly ca: string | undefined,
    private readonly answer: NonNullable<WebhookReceiverOptions['answer']>,
  ) {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => this.handle(request, response));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('secureConnection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
    const pems = options.tls ? await loopbackCertificate() : undefined;
    const server = pems ? createHttpsServer({ cert: pems.cert, key: pems.private }) : createHttpServer();
    server.keepAliveTimeout = 60_000;
    const receiver = new WebhookReceiver(server, pems?.cert, options.answer ?? (() => ({ status: 204 })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The receiver's URL on 127.0.0.1 (or on `host`, which must resolve to loopback). */
  url(path = '/hook', host = '127.0.0.1'): string {
    return `${this.ca ? 'https' : 'http'}://${host}:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      const index = this.received.push(received) - 1;
      const { status, delayMs = 0, headers = {} } = this.answer(received, index);
      const reply = () => {
        if (!response.destroyed) response.writeHead(status, headers).end();
      };
      if (delayMs) setTimeout(reply, delayMs).unref();
      else reply();
    });
  }
}
