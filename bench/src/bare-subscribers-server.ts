/**
 * The baseline of `subscribers-list`: a bare Fastify server answering `GET /v1/subscribers` for one
 * workspace (BENCH_WORKSPACE_ID; no authentication, no Nest, no validation pipe, no interceptors),
 * with the same database path as email-api: an EmailSql pool (plain pg, a pool of 10) running the very
 * named statement the app runs (`subscriberPageStatement` from @email/audience), the same
 * cursor codec and the same response text. Whatever email-api spends beyond this is the framework around it.
 *
 * Started as a child process (node bench/dist/bare-subscribers-server.js) with EMAIL_DATABASE_URL,
 * CURSOR_SECRET, HOST, PORT and BENCH_WORKSPACE_ID; answers GET /readyz once the database answers.
 */
import { fastify } from 'fastify';
import { loadConfig } from '@shared/config';
import { trustedWorkspaceId } from '@shared/core';
import { EmailSql } from '@email/data-access';
import { subscriberPageStatement, SubscriberPageJson } from '@email/audience';
import { CursorCodec, readKeysetPage } from '@shared/pagination';

async function main(): Promise<void> {
  if (!process.env.BENCH_WORKSPACE_ID) throw new Error('BENCH_WORKSPACE_ID is required');
  // The benchmark serves the one workspace it seeded.
  const workspaceId = trustedWorkspaceId(process.env.BENCH_WORKSPACE_ID);
  const config = loadConfig(process.env);
  const sql = new EmailSql(config);
  const codec = new CursorCodec(config.cursorSecret);
  const scope = `${workspaceId}:subscribers`;

  const app = fastify({ logger: false });
  app.get('/readyz', async () => {
    await sql.query({ text: 'SELECT 1' });
    return { status: 'ok' };
  });
  app.get('/v1/subscribers', async (request, reply) => {
    const page = readKeysetPage(codec, scope, request.query as { limit?: string; starting_after?: string });
    const [result] = await sql.query<SubscriberPageJson>(subscriberPageStatement(workspaceId, {}, page));
    const hasMore = result.fetched > page.limit;
    const nextCursor = hasMore ? codec.encode(scope, { created_at: result.last_created_at, id: result.last_id }) : null;
    reply.header('content-type', 'application/json; charset=utf-8');
    return `{"data":${result.data},"pagination":${JSON.stringify({ has_more: hasMore, next_cursor: nextCursor })}}`;
  });
  await app.listen({ port: config.port, host: config.host });

  const stop = () => {
    void app
      .close()
      .then(() => sql.onModuleDestroy())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`bare-subscribers-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
