import { Inject, Injectable } from '@nestjs/common';
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '@shared/config';

/** The path email-api serves export files under; the signed query string is the only authority. */
export const EXPORT_DOWNLOAD_PATH = '/downloads/subscriber-exports';

/**
 * Signed, expiring download links for export files: HMAC-SHA256 over the job id and the expiry, with a key derived
 * from CURSOR_SECRET (HKDF, its own label), so a link names one file until one instant and cannot be altered.
 */
@Injectable()
export class ExportLinks {
  private readonly key: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'cursorSecret' | 'publicBaseUrl'>) {
    this.key = Buffer.from(hkdfSync('sha256', config.cursorSecret, '', 'postline subscriber export downloads', 32));
  }

  url(jobId: string, expiresAt: Date): string {
    const expires = Math.floor(expiresAt.getTime() / 1000);
    return `${this.config.publicBaseUrl}${EXPORT_DOWNLOAD_PATH}/${jobId}?expires=${expires}&signature=${this.sign(jobId, expires)}`;
  }

  /** Whether the link's signature holds and it has not expired. */
  verify(jobId: string, expires: string | undefined, signature: string | undefined, now: Date): boolean {
    if (!expires || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return false;
    const expected = Buffer.from(this.sign(jobId, Number(expires)));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) && Number(expires) * 1000 > now.getTime();
  }

  private sign(jobId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${jobId}.${expires}`).digest('base64url');
  }
}
