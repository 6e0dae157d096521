import { assertValidKeyRequest } from './key-request';

const known = (scope: string) => scope.endsWith(':read');
const now = new Date('2026-06-01T12:00:00.000Z');

describe('assertValidKeyRequest', () => {
  it('accepts known scopes with no expiry, or an expiry in the future', () => {
    expect(() => assertValidKeyRequest({ scopes: ['tags:read'] }, known, now)).not.toThrow();
    expect(() => assertValidKeyRequest({ scopes: ['tags:read'], expiresAt: null }, known, now)).not.toThrow();
    expect(() => assertValidKeyRequest({ scopes: ['tags:read'], expiresAt: new Date(now.getTime() + 1) }, known, now)).not.toThrow();
  });

  it('names every unknown scope', () => {
    expect(() => assertValidKeyRequest({ scopes: ['tags:read', 'tags:write', 'root'] }, known, now)).toThrow(
      expect.objectContaining({ status: 400, code: 'unknown_scope', message: 'Unknown scope(s): tags:write, root.', details: { field: 'scopes' } }),
    );
  });

  it('requires at least one scope', () => {
    expect(() => assertValidKeyRequest({ scopes: [] }, known, now)).toThrow(
      expect.objectContaining({ status: 400, code: 'validation_failed', message: 'At least one scope is required.', details: { field: 'scopes' } }),
    );
  });

  it('refuses an expiry now or in the past', () => {
    for (const expiresAt of [now, new Date(now.getTime() - 1)]) {
      expect(() => assertValidKeyRequest({ scopes: ['tags:read'], expiresAt }, known, now)).toThrow(
        expect.objectContaining({ code: 'validation_failed', message: 'expires_at must be in the future.', details: { field: 'expires_at' } }),
      );
    }
  });
});
