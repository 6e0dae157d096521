import { isEmail } from 'class-validator';
import fc from 'fast-check';
import { acceptedEmail } from './email-identity';
import { isPlainEmail, SUBSCRIBER_EMAIL_MAX, subscriberEmail } from './subscriber-values';

/** The full checks alone, as subscriberEmail made them before its plain-address shortcut. */
function fullChecks(input: string): string {
  const email = input.trim();
  if (email.length > SUBSCRIBER_EMAIL_MAX || !isEmail(email)) return 'invalid';
  try {
    return acceptedEmail(email);
  } catch {
    return 'invalid';
  }
}

function stored(input: string): string {
  try {
    return subscriberEmail(input);
  } catch {
    return 'invalid';
  }
}

/** Address-shaped strings near the shortcut's edges: odd characters, hyphens, punycode, long labels and local parts. */
const piece = (min: number, max: number) =>
  fc
    .array(fc.constantFrom('a', 'Z', 'x', 'n', '0', '9', '-', '--', '_', '%', '+', '.', 'xn--', 'é', 'ü', '"', ' ', '!', '\uff21', '@'), {
      minLength: min,
      maxLength: max,
    })
    .map((parts) => parts.join(''));
const long = (char: string) => fc.integer({ min: 55, max: 70 }).map((n) => char.repeat(n));
const label = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-zA-Z0-9]([a-zA-Z0-9-]{0,8}[a-zA-Z0-9])?$/) },
  { weight: 2, arbitrary: piece(0, 6) },
  long('b'),
);
const local = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.stringMatching(/^[a-zA-Z0-9_%+-]{1,8}$/), { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join('.')) },
  { weight: 2, arbitrary: piece(0, 8) },
  long('c'),
);
const tld = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^[a-zA-Z]{2,6}$/) },
  { weight: 1, arbitrary: piece(0, 4) },
  { weight: 1, arbitrary: fc.constantFrom('c', '123', 'xn--p1ai', 'XN--P1AI') },
);
const address = fc
  .tuple(local, fc.array(label, { minLength: 0, maxLength: 4 }), tld, fc.constantFrom('', ' ', '.'))
  .map(([user, labels, top, edge]) => `${edge}${user}@${[...labels, top].join('.')}${edge}`);

describe('subscriberEmail', () => {
  it('stores exactly what the full checks store, with or without its shortcut for plain addresses', () => {
    fc.assert(
      fc.property(address, (input) => stored(input) === fullChecks(input)),
      { numRuns: 20_000 },
    );
  });

  it('takes the shortcut for many ordinary addresses and never for punycode, non-ASCII or over-long ones', () => {
    const sample = fc.sample(address, { numRuns: 2_000, seed: 14 });
    expect(sample.filter((input) => isPlainEmail(input.trim())).length).toBeGreaterThan(200);
    // …and the full checks still see valid addresses the shortcut leaves to them.
    expect(sample.filter((input) => !isPlainEmail(input.trim()) && fullChecks(input) !== 'invalid').length).toBeGreaterThan(25);
    expect(isPlainEmail('Ada.Lovelace+news@Mail.Example.COM')).toBe(true);
    expect(stored('  Ada.Lovelace+news@Mail.Example.COM ')).toBe('ada.lovelace+news@mail.example.com');
    for (const other of [
      'a@xn--mller-kva.de',
      'a@b.XN--mller-kva.de',
      'a@xn--p1ai',
      'jos\u00e9@example.com',
      'a@m\u00fcller.de',
      `${'c'.repeat(65)}@example.com`,
    ])
      expect([other, isPlainEmail(other)]).toEqual([other, false]);
    expect(stored('a@M\u00fcller.DE')).toBe('a@xn--mller-kva.de');
  });
});
