import { randomFillSync } from 'node:crypto';

/** Crockford's base32, as ULIDs use it. */
const ENCODING = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;
const MAX_TIME = 2 ** 48 - 1;

/** The 10-character ULID time part of a millisecond timestamp. */
export function encodeUlidTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIME) throw new RangeError(`cannot encode time ${ms}`);
  let out = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    const digit = ms % 32;
    out = ENCODING[digit] + out;
    ms = (ms - digit) / 32;
  }
  return out;
}

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
  private lastTime = -1;
  private lastTimeText = '';

  constructor(private readonly prefix: string) {}

  next(ms: number): string {
    if (ms === this.lastTime) {
      this.increment();
    } else {
      if (this.poolOffset === this.pool.length) {
        randomFillSync(this.pool);
        this.poolOffset = 0;
      }
      // 256 is a multiple of 32, so `byte & 31` is uniform.
      for (let i = 0; i < RANDOM_CHARS; i++) this.random[i] = this.pool[this.poolOffset + i] & 31;
      this.poolOffset += RANDOM_CHARS;
      this.lastTime = ms;
      this.lastTimeText = encodeUlidTime(ms);
    }
    let id = `${this.prefix}_${this.lastTimeText}`;
    for (let i = 0; i < RANDOM_CHARS; i++) id += ENCODING[this.random[i]];
    return id;
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
