import { randomFillSync } from 'node:crypto';

/** Crockford's base32, as ULIDs use it. */
const ENCODING = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ENCODING_BYTES = Buffer.from(ENCODING, 'latin1');
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
const MAX_TIME = 2 ** 48 - 1;

/**
 * Makes `<prefix>_<ULID>` ids for given creation times, like IdGenerator in libs/core does for "now":
 * the time part is the row's own created_at, so ids sort like created_at. Within one millisecond the
 * random part is incremented (ULID's monotonic rule), so ids also keep generation order there.
 * Randomness comes from the OS in bulk (one randomFillSync per 4,096 ids), not one call per id.
 */
export class TimeOrderedIds {
  private readonly pool = Buffer.alloc(RANDOM_CHARS * 4096);
  private poolOffset = this.pool.length;
  private readonly random = new Uint8Array(RANDOM_CHARS);
  private lastTime = Number.NaN;
  private lastTimeText = '';
  private readonly lastTimeBytes = Buffer.alloc(TIME_CHARS);
  private readonly prefixBytes: Buffer;

  constructor(private readonly prefix: string) {
    if (!/^[a-z]+$/.test(prefix)) throw new Error(`bad id prefix "${prefix}"`);
    this.prefixBytes = Buffer.from(`${prefix}_`, 'latin1');
  }

  next(ms: number): string {
    this.advance(ms);
    if (!this.lastTimeText) this.lastTimeText = this.lastTimeBytes.toString('latin1');
    let id = `${this.prefix}_${this.lastTimeText}`;
    for (let i = 0; i < RANDOM_CHARS; i++) id += ENCODING[this.random[i]];
    return id;
  }

  /** Like next(), but writes the id's ASCII bytes into `target` at `offset`; returns the offset after it. */
  write(ms: number, target: Buffer, offset: number): number {
    this.advance(ms);
    for (let i = 0; i < this.prefixBytes.length; i++) target[offset++] = this.prefixBytes[i];
    for (let i = 0; i < TIME_CHARS; i++) target[offset++] = this.lastTimeBytes[i];
    for (let i = 0; i < RANDOM_CHARS; i++) target[offset++] = ENCODING_BYTES[this.random[i]];
    return offset;
  }

  private advance(ms: number): void {
    if (ms === this.lastTime) {
      this.increment();
    } else {
      if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIME) throw new RangeError(`cannot encode time ${ms} in a ULID`);
      if (this.poolOffset === this.pool.length) {
        randomFillSync(this.pool);
        this.poolOffset = 0;
      }
      // 256 is a multiple of 32, so `byte & 31` is uniform.
      for (let i = 0; i < RANDOM_CHARS; i++) this.random[i] = this.pool[this.poolOffset + i] & 31;
      this.poolOffset += RANDOM_CHARS;
      this.lastTime = ms;
      this.lastTimeText = '';
      // 48 bits as two 24-bit integers (5 base32 digits of 5 bits... minus one bit each side): int math only.
      let low = ms % 2 ** 25;
      let high = (ms - low) / 2 ** 25;
      for (let i = TIME_CHARS - 1; i >= 5; i--) {
        this.lastTimeBytes[i] = ENCODING_BYTES[low & 31];
        low >>>= 5;
      }
      for (let i = 4; i >= 0; i--) {
        this.lastTimeBytes[i] = ENCODING_BYTES[high & 31];
        high >>>= 5;
      }
    }
  }

  private increment(): void {
    for (let i = RANDOM_CHARS - 1; i >= 0; i--) {
      if (this.random[i] < 31) {
        this.random[i]++;
        return;
      }
      this.random[i] = 0;
    }
    throw new Error('ULID random part overflowed within one millisecond');
  }
}
