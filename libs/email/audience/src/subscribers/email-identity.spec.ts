import { DomainError } from '@shared/errors';
import { acceptedEmail, emailIdentity } from './email-identity';

describe('emailIdentity', () => {
  it('lower-cases and trims, as before', () => {
    expect(emailIdentity('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('makes a precomposed and a decomposed é the same local part (NFC)', () => {
    const composed = emailIdentity('Jos\u00e9@example.com');
    expect(emailIdentity('Jose\u0301@example.com')).toBe(composed);
    expect(composed).toBe('jos\u00e9@example.com');
  });

  it('stores an internationalized domain in its ASCII form, in any case or composition', () => {
    expect(emailIdentity('a@M\u00fcller.DE')).toBe('a@xn--mller-kva.de');
    expect(emailIdentity('a@mu\u0308ller.de')).toBe('a@xn--mller-kva.de');
    expect(emailIdentity('a@XN--MLLER-KVA.de')).toBe('a@xn--mller-kva.de');
  });

  it('is idempotent', () => {
    for (const email of ['jose\u0301@M\u00fcller.de', 'ÅSA@Exämple.org']) expect(emailIdentity(emailIdentity(email))).toBe(emailIdentity(email));
  });

  it('rejects a domain IDNA cannot convert with a 400 naming the field', () => {
    let error: unknown;
    try {
      emailIdentity('a@bad domain', 'email');
    } catch (thrown) {
      error = thrown;
    }
    expect((error as DomainError).toBody()).toMatchObject({ type: 'invalid_request', code: 'invalid_email', details: { field: 'email' } });
  });
});

describe('acceptedEmail', () => {
  it('takes an ASCII local part with a Unicode domain, in its stored form', () => {
    expect(acceptedEmail(' Anna@M\u00fcller.de ')).toBe('anna@xn--mller-kva.de');
  });

  it.each(['Jos\u00e9@example.com', 'Jose\u0301@example.com', '\u00c5sa@example.org', '\u4f1a\u54e1@example.jp'])(
    'refuses %s: the local part is not ASCII',
    (email) => {
      expect(() => acceptedEmail(email, 'row.email')).toThrow(expect.objectContaining({ code: 'invalid_email', details: { field: 'row.email' } }));
    },
  );
});
