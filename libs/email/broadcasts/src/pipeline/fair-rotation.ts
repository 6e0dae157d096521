/** A run with deliveries left to send, as the rotation sees it. */
export interface RotationEntry {
  id: string;
  /** Deliveries not final yet (pending, retrying or in flight). */
  remaining: number;
}

/** A run's share grows with its remaining work, up to this many turns for each turn of the smallest run. */
export const MAX_TURN_WEIGHT = 4;

/**
 * Whose batch a worker sends next: smooth weighted round-robin over the active runs, each weighted by its remaining
 * batches (1 to MAX_TURN_WEIGHT). Every run gets a turn in each round, so a hundred-recipient run finishes within
 * its first few rounds while a million-recipient one keeps sending; the big one still gets most turns when it is
 * the one with most to do. A run can be rested (rate-limited, nothing claimable now) until a time.
 */
export class FairRotation {
  private entries = new Map<string, { weight: number; current: number; restUntil: number }>();

  constructor(private readonly batchSize: number) {}

  /** Replaces the set of runs, keeping the position and rest of those still there. */
  update(runs: readonly RotationEntry[]): void {
    const next = new Map<string, { weight: number; current: number; restUntil: number }>();
    for (const run of runs) {
      const weight = Math.min(MAX_TURN_WEIGHT, Math.max(1, Math.ceil(run.remaining / this.batchSize)));
      const known = this.entries.get(run.id);
      next.set(run.id, { weight, current: known?.current ?? 0, restUntil: known?.restUntil ?? 0 });
    }
    this.entries = next;
  }

  /** The next run to take a batch from, or null when every run is resting (or there is none). */
  next(now = Date.now()): string | null {
    let total = 0;
    let best: { id: string; entry: { weight: number; current: number } } | null = null;
    for (const [id, entry] of this.entries) {
      if (entry.restUntil > now) continue;
      entry.current += entry.weight;
      total += entry.weight;
      if (!best || entry.current > best.entry.current) best = { id, entry };
    }
    if (!best) return null;
    best.entry.current -= total;
    return best.id;
  }

  rest(id: string, until: number): void {
    const entry = this.entries.get(id);
    if (entry) entry.restUntil = Math.max(entry.restUntil, until);
  }

  remove(id: string): void {
    this.entries.delete(id);
  }

  /** When the earliest resting run wakes (null: none rests). */
  nextWake(): number | null {
    let wake: number | null = null;
    for (const entry of this.entries.values()) if (entry.restUntil && (wake === null || entry.restUntil < wake)) wake = entry.restUntil;
    return wake;
  }

  get size(): number {
    return this.entries.size;
  }
}
