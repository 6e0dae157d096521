import { IdGenerator } from './ids';

describe('IdGenerator', () => {
  it('makes prefixed, unique, time-ordered ULIDs', () => {
    const ids = new IdGenerator();
    const made = Array.from({ length: 10_000 }, () => ids.newId('frm'));
    expect(made.every((id) => /^frm_[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
  });

  it('spreads the random part over the whole alphabet', () => {
    const ids = new IdGenerator();
    const seen = new Set<string>();
    // Separate generators per id so each random part is fresh (a monotonic factory increments within a millisecond).
    for (let i = 0; i < 2_000; i++) for (const char of new IdGenerator().newId('x').slice(12)) seen.add(char);
    expect(seen.size).toBe(32);
    expect(ids.newId('a')).not.toBe(ids.newId('a'));
  });
});
