import { createHash } from 'node:crypto';
import { Principal } from './principal';

/**
 * Keeps verified principals for a few seconds so the hot path skips the database. Revocation evicts an entry at once
 * (see AuthChangeBus); `ttlMs` only bounds staleness when the revoking process could not reach Redis. An expired key
 * stops at once (checked on every hit).
 *
 * Every eviction bumps `generation`: a verification that started before an eviction must not store its (possibly
 * stale) result, so callers read `generation` before verifying and pass it to `set`.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();
  private currentGeneration = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  static keyOf(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  get generation(): number {
    return this.currentGeneration;
  }

  get(key: string): Principal | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.until <= now || (entry.principal.expiresAt && entry.principal.expiresAt.getTime() <= now)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  /** Stores unless an eviction happened since `generation` was read. */
  set(key: string, principal: Principal, generation = this.currentGeneration): void {
    if (this.ttlMs <= 0 || generation !== this.currentGeneration) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { principal, until: this.now() + this.ttlMs });
  }

  /** Forgets every entry matching `predicate`; with none, forgets everything. */
  evict(predicate?: (principal: Principal) => boolean): void {
    this.currentGeneration++;
    if (!predicate) return this.entries.clear();
    for (const [key, entry] of this.entries) if (predicate(entry.principal)) this.entries.delete(key);
  }
}
