import { findRegion, REGION_NAMES, REGIONS } from './regions';

describe('named regions', () => {
  it('are the eight the spec names', () => {
    expect(REGION_NAMES).toEqual(['EU', 'EEA', 'Europe', 'North America', 'Latin America', 'APAC', 'DACH', 'Nordics']);
  });

  it('hold upper-case alpha-2 codes, each once', () => {
    for (const name of REGION_NAMES) {
      expect(REGIONS[name].every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
      expect(new Set(REGIONS[name]).size).toBe(REGIONS[name].length);
    }
  });

  it('nest as the definitions say', () => {
    const within = (inner: readonly string[], outer: readonly string[]) => inner.filter((code) => !outer.includes(code));
    expect(REGIONS.EU).toHaveLength(27);
    expect(within(REGIONS.EU, REGIONS.EEA)).toEqual([]);
    expect(REGIONS.EEA.filter((code) => !(REGIONS.EU as readonly string[]).includes(code))).toEqual(['IS', 'LI', 'NO']);
    expect(within(REGIONS.EEA, REGIONS.Europe)).toEqual([]);
    expect(within(REGIONS.DACH, REGIONS.Europe)).toEqual([]);
    expect(within(['DK', 'FI', 'IS', 'NO', 'SE'], REGIONS.Nordics)).toEqual([]);
    expect(REGIONS.EU).not.toContain('GB');
    expect(REGIONS.Europe).toContain('GB');
    expect(REGIONS['Latin America']).toEqual(expect.arrayContaining(['MX', 'BR', 'AR', 'CU']));
    expect(REGIONS['North America']).not.toContain('BR');
    expect(REGIONS.APAC).toEqual(expect.arrayContaining(['JP', 'AU', 'IN', 'SG']));
  });

  it('are found by name without case', () => {
    expect(findRegion(' north AMERICA ')).toBe('North America');
    expect(findRegion('dach')).toBe('DACH');
    expect(findRegion('Antarctica')).toBeUndefined();
  });
});
