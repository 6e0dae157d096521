import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer, Server, Socket } from 'node:net';
import { freePort } from './ports';

async function waitUntilAccepting(port: number, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(true)).on('error', () => resolve(false));
      socket.once('connect', () => socket.destroy());
    });
    if (accepted) return;
    if (Date.now() > deadline) throw new Error(`nothing accepted connections on port ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A Redis server of the test's own (no persistence), on a free port, that the test can stop and start again. */
export class PrivateRedis {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
    this.process = spawn('redis-server', args, { stdio: 'ignore' });
    await waitUntilAccepting(this.port);
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
}

/**
 * A loopback TCP proxy in front of a server (PostgreSQL), so a test can make it refuse connections (down) or accept
 * them and never answer (hung), and then restore it. Connections open at the time are cut either way.
 */
export class TcpProxy {
  private server: Server;
  private readonly sockets = new Set<Socket>();
  private forwarding = true;

  private constructor(
    private readonly targetPort: number,
    readonly port: number,
  ) {
    this.server = this.createServer();
  }

  static async start(targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetPort, await freePort());
    await proxy.listen();
    return proxy;
  }

  private createServer(): Server {
    return createServer((client) => {
      this.track(client);
      if (!this.forwarding) return;
      const upstream = this.track(connect({ host: '127.0.0.1', port: this.targetPort }));
      client.pipe(upstream).pipe(client);
    });
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
    return socket;
  }

  private async listen(): Promise<void> {
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }

  private cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Connections are refused, as when the server is down. */
  async refuse(): Promise<void> {
    this.cutAll();
    if (!this.server.listening) return;
    const closed = once(this.server, 'close');
    this.server.close();
    await closed;
  }

  /** Connections are accepted and never answered, as when the server hangs or a firewall drops packets. */
  async hang(): Promise<void> {
    this.forwarding = false;
    this.cutAll();
  }

  async restore(): Promise<void> {
    this.forwarding = true;
    if (this.server.listening) return;
    this.server = this.createServer();
    await this.listen();
  }

  async close(): Promise<void> {
    await this.refuse();
  }
}
