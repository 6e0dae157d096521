import { createHmac, timingSafeEqual } from 'node:crypto';
import { SharedErrors } from '@shared/errors';

/**
 * Opaque, tamper-evident cursors: base64url(JSON) + "." + HMAC-SHA256 tag.
 * The tag also covers a scope (for example the workspace and list name), so a cursor
 * taken from one list or tenant cannot be replayed against another.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('Cursor secret must be at least 16 characters');
  }

  encode(scope: string, position: unknown): string {
    const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${payload}.${this.sign(scope, payload)}`;
  }

  /**
   * Returns the position, or throws a 400 naming `field` when the cursor is malformed, forged, from another scope,
   * or holds a position `isPosition` refuses (a signature proves where a cursor came from, not that a leaked or
   * older secret did not sign nonsense).
   */
  decode<T>(scope: string, cursor: string, isPosition: (position: unknown) => position is T, field = 'starting_after'): T {
    const invalid = () => SharedErrors.invalid('invalid_cursor', `"${field}" is not a cursor this list issued; pass next_cursor back unchanged.`, field);
    const [payload, tag, extra] = cursor.split('.');
    if (!payload || !tag || extra !== undefined || cursor.length > 1024) throw invalid();
    const expected = Buffer.from(this.sign(scope, payload));
    const given = Buffer.from(tag);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let position: unknown;
    try {
      position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!isPosition(position)) throw invalid();
    return position;
  }

  private sign(scope: string, payload: string): string {
    return createHmac('sha256', this.secret).update(scope).update('\0').update(payload).digest('base64url').slice(0, 22);
  }
}
