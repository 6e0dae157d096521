import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { EmailSql } from '@email/data-access';

/** The first instant (UTC) of the month `offset` months after the one holding `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/**
 * The oldest instant kept when `months` months of events are kept: the start of the month holding the instant
 * `months` months before `now`. Whole months go, so every event younger than `months` months stays, and up to a
 * month more. The writer refuses events before it and pruning drops the partitions that end by it: the same line.
 */
export function retentionCutoff(now: Date, months: number): Date {
  if (!Number.isInteger(months) || months < 1) throw new RangeError(`retention must be a whole number of months (got ${months})`);
  return monthStart(now, -months);
}

const day = (month: Date) => month.toISOString().slice(0, 10);

/**
 * Creating or dropping a partition locks email_events exclusively: writers and maintenance take this lock first, so
 * two of them never race to create the same month (the loser would fail on the name), and give up after a while
 * rather than queue every reader of the table behind a long wait.
 */
const PARTITION_LOCK = 0x656d6576; // 'emev'
async function lockPartitions(client: PoolClient): Promise<void> {
  await client.query(`SET LOCAL lock_timeout = '10s'`);
  await client.query({ text: 'SELECT pg_advisory_xact_lock($1)', values: [PARTITION_LOCK] });
}

/**
 * The monthly partitions of email_events (see the migration's email_events_ensure_partition and
 * email_events_drop_partitions_before). Partitions are not a workspace's: nothing here names one.
 */
@Injectable()
export class EmailEventPartitions {
  /** First days (YYYY-MM-DD) of the months this process has seen created; they are not asked for again. */
  private readonly known = new Set<string>();

  constructor(private readonly sql: EmailSql) {}

  /**
   * Makes sure the months holding these instants have their partitions, in a short transaction of its own. Months
   * this process already knows are not asked for again unless `recheck`.
   */
  async ensure(instants: Date[], recheck = false): Promise<void> {
    const missing = [...new Set(instants.map((at) => day(monthStart(at))))].filter((month) => recheck || !this.known.has(month)).sort();
    if (missing.length === 0) return;
    await this.sql.transaction(async (client) => {
      await lockPartitions(client);
      await client.query({ text: 'SELECT email_events_ensure_partition(month) FROM unnest($1::date[]) AS month', values: [missing] });
    });
    for (const month of missing) this.known.add(month);
  }

  /** Drops the partitions of the months that end by `cutoff` (a month's start); returns how many went. */
  async dropBefore(cutoff: Date): Promise<number> {
    const dropped = await this.sql.transaction(async (client) => {
      await lockPartitions(client);
      const { rows } = await client.query<{ dropped: number }>({
        text: 'SELECT email_events_drop_partitions_before($1::date) AS dropped',
        values: [day(cutoff)],
      });
      return rows[0].dropped;
    });
    for (const month of this.known) if (month < day(cutoff)) this.known.delete(month);
    return dropped;
  }

  /** Forgets what this process knows, so the next ensure asks the database again (a partition went behind its back). */
  forget(): void {
    this.known.clear();
  }

  /** The months that have a partition, oldest first, as their first days (YYYY-MM-DD). */
  async months(): Promise<string[]> {
    const rows = await this.sql.query<{ month: string }>({
      text: `SELECT to_char(to_date(substr(c.relname, 14), 'YYYY_MM'), 'YYYY-MM-DD') AS month
             FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = 'email_events'::regclass AND c.relname ~ '^email_events_[0-9]{4}_[0-9]{2}$'
             ORDER BY 1`,
    });
    return rows.map((row) => row.month);
  }
}
