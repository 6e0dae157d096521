import { Client } from 'pg';
import { createTestDatabase, type Service } from './databases';

export interface RecordedStatement {
  text: string;
  values: unknown[];
}

interface PlanNode {
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/**
 * The indexes PostgreSQL plans to read for a statement when sequential scans are ruled out: whether an index can
 * serve it at all, whatever the table's size. Nothing is executed.
 */
export async function indexesPlannedFor(databaseUrl: string, { text, values }: RecordedStatement): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
    const names: string[] = [];
    const walk = (node: PlanNode): void => {
      if (node['Index Name']) names.push(node['Index Name']);
      node.Plans?.forEach(walk);
    };
    walk(rows[0]['QUERY PLAN'][0].Plan);
    return names.sort();
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
}

/** A stand-in for a Prisma client that records its `$executeRaw` statements (`$1`, `$2`, … for the values) instead of running them. */
export function rawStatementRecorder() {
  const statements: RecordedStatement[] = [];
  const $executeRaw = (strings: TemplateStringsArray, ...values: unknown[]) => {
    statements.push({ text: strings.reduce((text, piece, i) => `${text}$${i}${piece}`), values });
    return Promise.resolve(0);
  };
  return { $executeRaw, statements };
}

/** The indexes each of the OAuth purge's statements (codes, tokens, sessions) would read, as `purge` sends them. */
export async function oauthPurgeIndexPlans(
  service: Service,
  purge: (recorder: ReturnType<typeof rawStatementRecorder>) => Promise<unknown>,
): Promise<string[][]> {
  const recorder = rawStatementRecorder();
  await purge(recorder);
  const db = await createTestDatabase(service);
  try {
    return await Promise.all(recorder.statements.map((statement) => indexesPlannedFor(db.url, statement)));
  } finally {
    await db.drop();
  }
}

/** What oauthPurgeIndexPlans should find: each statement reads its cut-off columns' indexes. */
export const OAUTH_PURGE_INDEXES = [
  ['oauth_authorization_codes_expires_at_idx'],
  ['oauth_tokens_expires_at_idx', 'oauth_tokens_revoked_at_idx'],
  ['browser_sessions_expires_at_idx'],
];
