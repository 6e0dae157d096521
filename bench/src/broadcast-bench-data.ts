import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { BroadcastPipelineModule } from '@email/broadcasts';
import { EmailDataAccessModule } from '@email/data-access';
import { AppConfig, ConfigModule } from '@shared/config';
import { CoreModule } from '@shared/core';
import { QueueModule } from '@shared/queue';
import { RedisModule } from '@shared/redis';
import { withClient } from './databases';
import { log } from './cli';

@Module({})
class BenchBroadcastModule {}

/** A personalised document: the name and email tokens in the subject and body, one link, about 2 KB of HTML with the footer. */
export const BENCH_DOCUMENT = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Spring news for [Subscriber_Name, fallback="friend"]' }] },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Hi [Subscriber_Name, fallback="friend"], this goes to [Subscriber_Email, fallback="you"]. ' },
        { type: 'text', text: 'Read more', marks: [{ type: 'link', attrs: { href: 'https://example.com/spring' } }] },
      ],
    },
  ],
};
export const BENCH_SUBJECT = 'News for [Subscriber_Name, fallback="friend"]';

/**
 * A workspace `wsp_bench_bc_<count>` with `count` Active subscribers, made once per database and reused (its
 * subscriber count says it is complete).
 */
export async function benchAudience(url: string, count: number): Promise<string> {
  const workspaceId = `wsp_bench_bc_${count}`;
  await withClient(url, async (client) => {
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM subscribers WHERE workspace_id = $1', [workspaceId]);
    if (rows[0].n === count) return;
    log(`broadcast: creating ${count.toLocaleString('en-US')} subscribers in ${workspaceId}`);
    await client.query('DELETE FROM workspaces WHERE id = $1', [workspaceId]);
    await client.query(
      `INSERT INTO workspaces (id, name, address, city, country, updated_at) VALUES ($1, 'Bench broadcasts', '1 Main St', 'Springfield', 'US', now())`,
      [workspaceId],
    );
    await client.query(
      `INSERT INTO subscribers (id, workspace_id, email, name, updated_at)
       SELECT 'sub_bc' || $2 || '_' || lpad(n::text, 8, '0'), $1, 'reader' || n || '@bench.example', 'Reader ' || n, now() FROM generate_series(1, $2) AS n`,
      [workspaceId, count],
    );
    await client.query('ANALYZE subscribers');
  });
  return workspaceId;
}

/** A custom-smtp connection (no credentials) to a loopback sink, with its send rate and connection count. */
export async function benchConnection(url: string, workspaceId: string, id: string, port: number, connections: number): Promise<void> {
  const config = { host: '127.0.0.1', port, secure_mode: 'none' };
  await withClient(url, (client) =>
    client.query(
      `INSERT INTO delivery_connections (id, workspace_id, name, provider, from_email, from_name, enabled, provider_config,
         send_rate_per_second, send_connections, updated_at)
       VALUES ($1, $2, $1, 'custom-smtp', 'news@bench.example', 'Bench News', true, $3, 1000000, $4, now())
       ON CONFLICT (id) DO UPDATE SET provider_config = EXCLUDED.provider_config, send_connections = EXCLUDED.send_connections, updated_at = now()`,
      [id, workspaceId, JSON.stringify(config), connections],
    ),
  );
}

/** A broadcast already running with its run in `phase`, as BroadcastRunStarter leaves them (without the job). */
export async function benchRun(url: string, workspaceId: string, connectionId: string, id: string, phase: 'preparing' | 'paused'): Promise<string> {
  await withClient(url, async (client) => {
    await client.query(
      `INSERT INTO broadcasts (id, workspace_id, subject, body_document, body, status, connection_id, track_opens, track_clicks, updated_at)
       VALUES ($1, $2, $3, $4, '', 'running', $5, true, true, now())`,
      [id, workspaceId, BENCH_SUBJECT, JSON.stringify(BENCH_DOCUMENT), connectionId],
    );
    await client.query(
      `INSERT INTO broadcast_runs (id, workspace_id, broadcast_id, phase, content_version, connection_id, updated_at) VALUES ($1, $2, $3, $4, 1, $5, now())`,
      [`brun_${id}`, workspaceId, id, phase, connectionId],
    );
  });
  return `brun_${id}`;
}

/** The send pipeline's services in this process (no lanes or maintenance running): for timing one phase directly. */
export function pipelineContext(url: string, queuePrefix: string, overrides: Partial<AppConfig> = {}): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(
    {
      module: BenchBroadcastModule,
      imports: [
        ConfigModule.forRoot({}, { emailDatabaseUrl: url, queuePrefix, ...overrides }),
        CoreModule,
        RedisModule,
        QueueModule.forRoot(),
        EmailDataAccessModule,
        BroadcastPipelineModule,
      ],
    },
    { logger: false },
  );
}
