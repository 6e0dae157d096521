import { ImportRow, isRejection, Rejection } from './import-mapping';

/** One lane's batch: its checked rows in file order, covering the lane's rows after row `from` through row `through`. */
export interface LaneBatch {
  rows: ImportRow[];
  rejections: Rejection[];
  from: number;
  through: number;
}

type WriteBatch = (lane: number, batch: LaneBatch) => Promise<unknown>;

/**
 * Splits an import's checked rows into lanes by email (a rejected row by its number), so every row of one email is in
 * the same lane. Each lane writes its batches one after the other, so the last row of an email still wins, while the
 * lanes write at the same time, each on its own connection. A lane's resume point is the last row its committed
 * batches cover: a restarted job skips the rows at or before it.
 */
export class ImportLanes {
  private readonly open: Array<{ rows: ImportRow[]; rejections: Rejection[] }>;
  /** Per lane, the last row handed to a write: where its next batch starts. */
  private readonly batchedThrough: number[];
  private readonly lastRow: number[];
  private readonly writing: Array<Promise<void>>;
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly resumeAt: readonly number[],
    private readonly batchRows: number,
    private readonly write: WriteBatch,
  ) {
    this.open = resumeAt.map(() => ({ rows: [], rejections: [] }));
    this.batchedThrough = [...resumeAt];
    this.lastRow = [...resumeAt];
    this.writing = resumeAt.map(() => Promise.resolve());
  }

  /** Adds a checked row to its lane; waits while that lane's previous batch is still being written and the next one is full. */
  async add(row: ImportRow | Rejection): Promise<void> {
    if (this.failure) throw this.failure.error;
    const lane = isRejection(row) ? row.rowNumber % this.resumeAt.length : emailLane(row.email, this.resumeAt.length);
    if (row.rowNumber <= this.resumeAt[lane]) return;
    const open = this.open[lane];
    if (isRejection(row)) open.rejections.push(row);
    else open.rows.push(row);
    this.lastRow[lane] = row.rowNumber;
    if (open.rows.length + open.rejections.length >= this.batchRows) await this.flush(lane);
  }

  /** Writes what every lane still holds and waits for all writes; throws the first write's failure. */
  async finish(): Promise<void> {
    for (let lane = 0; lane < this.open.length; lane++) if (this.open[lane].rows.length + this.open[lane].rejections.length) await this.flush(lane);
    await this.settled();
    if (this.failure) throw this.failure.error;
  }

  /** Waits for every write in flight, whatever its outcome. */
  async settled(): Promise<void> {
    await Promise.all(this.writing);
  }

  /** Whether `error` is a lane's write failure (rather than the file's). */
  failed(error: unknown): boolean {
    return this.failure !== null && this.failure.error === error;
  }

  private async flush(lane: number): Promise<void> {
    await this.writing[lane];
    if (this.failure) throw this.failure.error;
    const batch: LaneBatch = { ...this.open[lane], from: this.batchedThrough[lane], through: this.lastRow[lane] };
    this.open[lane] = { rows: [], rejections: [] };
    this.batchedThrough[lane] = batch.through;
    this.writing[lane] = this.write(lane, batch).then(
      () => undefined,
      (error: unknown) => void (this.failure ??= { error }),
    );
  }
}

/** The lane of an email: FNV-1a over its characters, so the same email always lands in the same lane. */
export function emailLane(email: string, lanes: number): number {
  if (lanes === 1) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < email.length; i++) hash = Math.imul(hash ^ email.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % lanes;
}
