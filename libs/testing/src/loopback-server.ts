import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** An HTTP server on 127.0.0.1 at a port the system chose. */
export interface LoopbackHttpServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Ends the connections still open (a keep-alive client or an unanswered request would hold it), then closes. */
  stop(): Promise<void>;
}

/** Starts a test server (a fake of some remote API) that answers with `handler`. */
export async function startLoopbackHttpServer(handler: http.RequestListener): Promise<LoopbackHttpServer> {
  const server = http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
