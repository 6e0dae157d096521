import type { Redis } from 'ioredis';
import { IpRequestLimit } from '@shared/rate-limit';

/**
 * Dynamic registration is open to anyone and writes a row, so it is counted per client IP (20 an hour by default);
 * a registration over the limit is refused before anything is stored.
 */
export class RegistrationLimiter extends IpRequestLimit {
  /** `prefix`, e.g. `<namespace>:email-oauth-register`: services never share counters. */
  constructor(redis: Redis, prefix: string, perIp = 20, windowMs = 60 * 60_000) {
    super(redis, prefix, perIp, windowMs);
  }
}
