import { OnModuleDestroy } from '@nestjs/common';
import { Pool, PoolClient, QueryConfig, QueryResultRow } from 'pg';

const ignore = () => undefined;

export interface TransactionOptions {
  /** Overrides the pool's deadline for this transaction; 0 means none (only for work that must hold it however long). */
  timeoutMs?: number;
}

/** A transaction outlived its deadline: it was rolled back and its connection closed. */
export class TransactionDeadlineExceeded extends Error {
  constructor(timeoutMs: number) {
    super(`The transaction outlived its ${timeoutMs} ms deadline and was rolled back.`);
  }
}

/**
 * A plain node-postgres pool for a service's hot statements, where Prisma's per-query overhead and re-planning show.
 * Statements sent with a `name` are prepared once per connection and not re-planned. Each service names its own
 * subclass (EmailSql, FormsSql) with its database URL.
 */
export abstract class SqlPool implements OnModuleDestroy {
  private readonly pool: Pool;

  /** `transactionTimeoutMs`: the default deadline of a transaction (0: none). */
  protected constructor(
    connectionString: string,
    connectTimeoutMs: number,
    private readonly transactionTimeoutMs = 0,
    max = 10,
  ) {
    this.pool = new Pool({ connectionString, max, connectionTimeoutMillis: connectTimeoutMs });
    // The pool drops an idle connection the server closed (restart, failover); unhandled, the event would end the process.
    this.pool.on('error', () => undefined);
  }

  async query<Row extends QueryResultRow>(statement: QueryConfig): Promise<Row[]> {
    return (await this.pool.query<Row>(statement)).rows;
  }

  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. Past its
   * deadline it is rolled back too: the server cancels a statement still running (statement_timeout) or the
   * connection left idle in the transaction, and the caller gets TransactionDeadlineExceeded at once.
   */
  async transaction<T>(work: (client: PoolClient) => Promise<T>, { timeoutMs = this.transactionTimeoutMs }: TransactionOptions = {}): Promise<T> {
    if (!Number.isInteger(timeoutMs) || timeoutMs < 0) throw new RangeError(`transaction timeout must be a whole number of ms (got ${timeoutMs})`);
    const client = await this.pool.connect();
    let broken: Error | undefined;
    let deadline: NodeJS.Timeout | undefined;
    // The server's end of the deadline (an idle connection terminated) arrives as an event; its query reports it too.
    client.on('error', ignore);
    try {
      await client.query(
        timeoutMs ? `BEGIN; SET LOCAL statement_timeout = ${timeoutMs}; SET LOCAL idle_in_transaction_session_timeout = ${timeoutMs}` : 'BEGIN',
      );
      const expired = new Promise<never>((_, reject) => {
        if (timeoutMs) deadline = setTimeout(() => reject(new TransactionDeadlineExceeded(timeoutMs)), timeoutMs);
      });
      const result = await Promise.race([work(client), expired]);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // Past the deadline `work` may still be using the connection: it is closed, which ends the transaction.
      if (error instanceof TransactionDeadlineExceeded) broken = error;
      else await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
      throw error;
    } finally {
      clearTimeout(deadline);
      client.off('error', ignore);
      // A connection that could not roll back is closed rather than handed to the next caller.
      client.release(broken);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
