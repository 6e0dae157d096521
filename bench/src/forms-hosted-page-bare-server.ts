/**
 * The baseline of `forms-hosted-page`: a bare Fastify server answering `GET /f/*` with the very bytes and headers
 * forms-api answered for the benchmark form (read from PAGE_FILE, a JSON {headers, body} the benchmark wrote), with
 * no Nest, no cache lookup and no database. Whatever forms-api spends beyond this is its own request pipeline.
 *
 * Started as a child process (node bench/dist/forms-hosted-page-bare-server.js) with HOST, PORT and PAGE_FILE;
 * answers GET /readyz.
 */
import { readFileSync } from 'node:fs';
import { fastify } from 'fastify';

/** Headers Fastify sets itself (the body is stored decoded); the rest are copied as the app sent them. */
const OWN_HEADERS = new Set(['content-length', 'content-encoding', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

async function main(): Promise<void> {
  const page = JSON.parse(readFileSync(String(process.env.PAGE_FILE), 'utf8')) as { headers: Record<string, string>; body: string };
  const headers = Object.fromEntries(Object.entries(page.headers).filter(([name]) => !OWN_HEADERS.has(name)));
  const body = Buffer.from(page.body);
  const app = fastify({ logger: false });
  app.get('/readyz', () => ({ status: 'ok' }));
  app.get('/f/*', (_request, reply) => reply.headers(headers).send(body));
  await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`forms-hosted-page-bare-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
