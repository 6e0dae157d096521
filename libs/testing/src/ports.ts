import { createServer } from 'node:net';

/** Whether `port` can be bound on 127.0.0.1 right now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free TCP port on 127.0.0.1, drawn at random below Linux's ephemeral range. The OS's own choice (port 0) tends to
 * hand the same just-released port to two test files running side by side, and the app binds it only a second later.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}
