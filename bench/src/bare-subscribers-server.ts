/**
 * The baseline of `subscribers-list`: a bare Fastify server answering `GET /v1/subscribers` for one
 * workspace (BENCH_WORKSPACE_ID; no authentication, no Nest, no validation pipe, no interceptors),
 * with the same database path as email-api: an EmailPrisma client (Prisma + @prisma/adapter-pg, a pool
 * of 10) running the same raw statement with $queryRaw, the same cursor codec and the same mapping
 * to the same JSON. Whatever email-api spends beyond this is the framework around the query.
 *
 * Started as a child process (node bench/dist/bare-subscribers-server.js) with EMAIL_DATABASE_URL,
 * CURSOR_SECRET, HOST, PORT and BENCH_WORKSPACE_ID; answers GET /readyz once the database answers.
 */
import { fastify } from 'fastify';
import { loadConfig } from '@shared/config';
import { EmailPrisma, Prisma } from '@email/data-access';
import { toSubscriberDto } from '@email/audience';
import { CursorCodec, cursorFor, KeysetPage, readKeysetPage, toPage } from '@shared/pagination';

/**
 * A copy of the statement SubscriberRepository.page builds for an unfiltered list (only
 * `s.workspace_id = …` and the keyset condition), built with Prisma.sql the same way, so the text and
 * the parameters sent are identical. The repository is not exported from @email/audience; once it is
 * (or its statement builder), use it here instead of this copy.
 */
const VIEW = Prisma.sql`
  s.id, s.email, s.name, s.status, s.country, s.subscribed_at, s.last_opened_at, s.custom_fields, s.created_at, s.updated_at,
  COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name, t.id)
            FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id WHERE st.subscriber_id = s.id), '[]'::json) AS tags,
  COALESCE((SELECT json_agg(e.sequence_id ORDER BY e.enrolled_at, e.sequence_id)
            FROM sequence_enrollments e WHERE e.subscriber_id = s.id AND e.state = 'active'), '[]'::json) AS sequence_ids`;

type Row = Parameters<typeof toSubscriberDto>[0];

function subscriberPage(prisma: EmailPrisma, workspaceId: string, page: KeysetPage): Promise<Row[]> {
  const where = [Prisma.sql`s.workspace_id = ${workspaceId}`];
  if (page.after) where.push(Prisma.sql`(s.created_at, s.id) < (${page.after.created_at}, ${page.after.id})`);
  return prisma.$queryRaw<Row[]>`
      SELECT ${VIEW} FROM subscribers s WHERE ${Prisma.join(where, ' AND ')}
      ORDER BY s.created_at DESC, s.id DESC LIMIT ${page.limit + 1}`;
}

async function main(): Promise<void> {
  const workspaceId = process.env.BENCH_WORKSPACE_ID;
  if (!workspaceId) throw new Error('BENCH_WORKSPACE_ID is required');
  const config = loadConfig(process.env);
  const prisma = new EmailPrisma(config);
  const codec = new CursorCodec(config.cursorSecret);
  const scope = `${workspaceId}:subscribers`;

  const app = fastify({ logger: false });
  app.get('/readyz', async () => {
    await prisma.$queryRaw`SELECT 1`;
    return { status: 'ok' };
  });
  app.get('/v1/subscribers', async (request) => {
    const page = readKeysetPage(codec, scope, request.query as { limit?: string; starting_after?: string });
    const rows = await subscriberPage(prisma, workspaceId, page);
    return toPage(rows, page.limit, toSubscriberDto, (row) => cursorFor(codec, scope, row));
  });
  await app.listen({ port: config.port, host: config.host });

  const stop = () => {
    void app
      .close()
      .then(() => prisma.$disconnect())
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
