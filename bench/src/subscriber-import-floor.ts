import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { openBenchDatabase, withClient } from './databases';
import { secondsSince } from './cli';

/**
 * The schema floor of an import: PostgreSQL alone writing the file's rows into an empty copy of our schema, with the
 * indexes and foreign keys the product needs (the subscriber search's trigram index, the per-workspace unique email,
 * the memberships' keys), in the cheapest form there is: COPY into a staging table, then one INSERT … SELECT into
 * `subscribers` and one into `subscriber_tags`, on one connection. No checking, no batching, no events. What an import
 * cannot beat on this schema, however its own code is written.
 */
export async function importSchemaFloorSeconds(csv: string): Promise<number> {
  const database = await openBenchDatabase('subscriber-import (schema floor)', { name: 'pl_bench_subscriber_import_floor', keep: false });
  try {
    return await withClient(database.url, async (client) => {
      await client.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ('wsp_floor', 'Floor', now())`);
      await client.query(`INSERT INTO tags (id, workspace_id, name, name_key, updated_at) VALUES ('tag_floor', 'wsp_floor', 'Floor', 'floor', now())`);
      await client.query('CREATE UNLOGGED TABLE floor_rows (email text, name text, country text, status text, plan text, score text)');
      const started = performance.now();
      await pipeline(createReadStream(csv), client.query(copyFrom(`COPY floor_rows FROM STDIN (FORMAT csv, HEADER true, DELIMITER ';')`)));
      await client.query(`
        INSERT INTO subscribers (id, workspace_id, email, name, status, country, custom_fields, subscribed_at, created_at, updated_at)
        SELECT 'sub_' || md5(email), 'wsp_floor', email, name, status::"SubscriberStatus", country,
               jsonb_build_object('cf_plan', plan, 'cf_score', score::numeric), now(), now(), now()
        FROM floor_rows`);
      await client.query(
        `INSERT INTO subscriber_tags (workspace_id, subscriber_id, tag_id, created_at) SELECT 'wsp_floor', 'sub_' || md5(email), 'tag_floor', now() FROM floor_rows`,
      );
      return secondsSince(started);
    });
  } finally {
    await database.release();
  }
}
