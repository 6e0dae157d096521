import { CONTRACT_OFFSET_DATE_TIME, isOffsetDateTime } from './dates';

const SAMPLES = [
  '2026-01-31T10:00:00Z',
  '2026-01-31T10:00:00.5+02:00',
  '2026-01-31T23:59:59.1234567891-11:30',
  '2024-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2026-02-29T00:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-01-31T24:00:00Z',
  '2026-01-31T10:00:00',
  '2026-01-31 10:00:00Z',
  '2026-01-31T10:00Z',
];

describe('isOffsetDateTime and the contract pattern', () => {
  it('accepts every value the documented contract pattern matches', () => {
    const matched = SAMPLES.filter((value) => CONTRACT_OFFSET_DATE_TIME.test(value));
    expect(matched).toEqual([
      '2026-01-31T10:00:00Z',
      '2026-01-31T10:00:00.5+02:00',
      '2026-01-31T23:59:59.1234567891-11:30',
      '2024-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
    ]);
    expect(matched.filter((value) => !isOffsetDateTime(value))).toEqual([]);
  });

  it('refuses impossible days, missing offsets and missing times, and also takes a time without seconds', () => {
    const accepted = SAMPLES.filter((value) => isOffsetDateTime(value));
    expect(accepted.filter((value) => !CONTRACT_OFFSET_DATE_TIME.test(value))).toEqual(['2026-01-31T10:00Z']);
  });
});
