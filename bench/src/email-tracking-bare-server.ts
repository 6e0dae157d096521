/**
 * The baseline of `email-tracking`: a bare Fastify server answering the same paths with the same bytes and headers
 * (the 43-byte GIF for `GET /o/*`, a 302 to `u` for `GET /c/*`) but with no token check, no database and no Nest.
 * Whatever email-api spends beyond this is verifying the signatures and recording the event. Loopback only; it
 * redirects to whatever it is given, which is why it is a benchmark baseline and nothing else.
 *
 * Started as a child process (node bench/dist/email-tracking-bare-server.js) with HOST and PORT; answers GET /readyz.
 */
import { fastify } from 'fastify';

const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const NO_CACHE = { 'cache-control': 'no-store, no-cache, must-revalidate, private, max-age=0', pragma: 'no-cache', expires: '0' };

async function main(): Promise<void> {
  const app = fastify({ logger: false });
  app.get('/readyz', () => ({ status: 'ok' }));
  app.get('/o/*', (_request, reply) => reply.headers({ ...NO_CACHE, 'content-type': 'image/gif', 'x-content-type-options': 'nosniff' }).send(GIF));
  app.get<{ Querystring: { u?: string } }>('/c/*', (request, reply) =>
    reply
      .code(302)
      .headers({ ...NO_CACHE, location: new URL(request.query.u ?? '').href })
      .send(),
  );
  await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`email-tracking-bare-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
