import { monthStart, retentionCutoff } from './event-partitions';

const at = (iso: string) => new Date(iso);

describe('monthStart', () => {
  it('is the first instant of the UTC month, whatever the offset', () => {
    expect(monthStart(at('2026-06-15T12:34:56.789Z'))).toEqual(at('2026-06-01T00:00:00.000Z'));
    expect(monthStart(at('2026-06-30T23:59:59.999Z'))).toEqual(at('2026-06-01T00:00:00.000Z'));
    expect(monthStart(at('2026-07-01T00:00:00.000Z'))).toEqual(at('2026-07-01T00:00:00.000Z'));
    expect(monthStart(at('2026-11-30T23:00:00Z'), 3)).toEqual(at('2027-02-01T00:00:00.000Z'));
    expect(monthStart(at('2026-01-31T00:00:00Z'), -1)).toEqual(at('2025-12-01T00:00:00.000Z'));
  });
});

describe('retentionCutoff', () => {
  it('keeps whole months: the month holding the instant N months back, and everything after', () => {
    expect(retentionCutoff(at('2026-06-15T12:00:00Z'), 25)).toEqual(at('2024-05-01T00:00:00.000Z'));
    expect(retentionCutoff(at('2026-03-01T00:00:00Z'), 25)).toEqual(at('2024-02-01T00:00:00.000Z'));
    expect(retentionCutoff(at('2026-12-31T23:59:59Z'), 4)).toEqual(at('2026-08-01T00:00:00.000Z'));
  });

  it('always keeps at least N months of events', () => {
    for (let day = 0; day < 800; day += 7) {
      const now = new Date(Date.UTC(2026, 0, 1) + day * 86_400_000);
      const nMonthsAgo = new Date(now);
      nMonthsAgo.setUTCMonth(now.getUTCMonth() - 4);
      expect(retentionCutoff(now, 4).getTime()).toBeLessThanOrEqual(nMonthsAgo.getTime());
    }
  });

  it('refuses a retention that is not a positive whole number of months', () => {
    for (const months of [0, -1, 1.5, Number.NaN]) expect(() => retentionCutoff(at('2026-06-15T00:00:00Z'), months)).toThrow(RangeError);
  });
});
