import { createHash } from 'node:crypto';
import { Principal } from './principal';

/**
 * Keeps verified principals for a few seconds so the hot path skips the database.
 * A revoked key stops working within `ttlMs`; an expired key stops at once (checked on every hit).
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  static keyOf(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
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

  set(key: string, principal: Principal): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { principal, until: this.now() + this.ttlMs });
  }
}
