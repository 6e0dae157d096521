/**
 * Loads by key at most once per `ttlMs` and shares the pending load between concurrent callers. A failed load is
 * forgotten at once; past `maxEntries` the oldest entry makes room. A TTL of 0 turns caching off.
 */
export class ExpiringCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, load: (key: string) => Promise<V>): Promise<V> {
    if (this.ttlMs <= 0) return load(key);
    const cached = this.entries.get(key);
    if (cached && cached.expires > Date.now()) return cached.value;
    const value = load(key);
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
    value.catch(() => this.entries.delete(key));
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
