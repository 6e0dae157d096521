import { decodeTime } from 'ulid';
import { TimeOrderedIds } from './ids';
import { LatencySamples } from './load';
import { copyText, FIRST_NAMES, LAST_NAMES, SUBSCRIBER_COLUMNS, SubscriberRowGenerator } from './seed-data';

const ID = /^sub_[0-9A-HJKMNP-TV-Z]{26}$/;
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

function rows(count: number, options: Partial<{ offset: number; seed: number; years: number }> = {}): string[][] {
  const generator = new SubscriberRowGenerator({ workspaceId: 'wsp_01TEST', count, offset: 0, years: 5, now: NOW, seed: 42, ...options });
  const text = [...generator.batches(333)].map((b) => b.toString('utf8')).join('');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => line.split('\t'));
}

describe('TimeOrderedIds', () => {
  it('makes ULIDs whose time part is the given time', () => {
    const ids = new TimeOrderedIds('sub');
    for (const ms of [1, 2 ** 25 - 1, 2 ** 25, 1_700_000_000_123, 2 ** 48 - 1]) {
      const id = ids.next(ms);
      expect(id).toMatch(ID);
      expect(decodeTime(id.slice(4))).toBe(ms);
    }
  });

  it('writes the same bytes as next() would, and stays monotonic within one millisecond', () => {
    const ids = new TimeOrderedIds('sub');
    const buffer = Buffer.alloc(64);
    const made = [ids.next(5_000), ids.next(5_000)];
    made.push(buffer.toString('latin1', 0, ids.write(5_000, buffer, 0)));
    made.push(ids.next(5_001));
    expect(made.every((id) => ID.test(id))).toBe(true);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it('rejects times a ULID cannot hold', () => {
    expect(() => new TimeOrderedIds('sub').next(-1)).toThrow(RangeError);
    expect(() => new TimeOrderedIds('sub').next(2 ** 48)).toThrow(RangeError);
  });
});

describe('SubscriberRowGenerator', () => {
  it('generates COPY text rows with every column, in created_at order, ids sorting like created_at', () => {
    const table = rows(5_000);
    expect(table).toHaveLength(5_000);
    const at = (name: (typeof SUBSCRIBER_COLUMNS)[number]) => SUBSCRIBER_COLUMNS.indexOf(name);
    let previous = '';
    for (const row of table) {
      expect(row).toHaveLength(SUBSCRIBER_COLUMNS.length);
      const id = row[at('id')];
      expect(id).toMatch(ID);
      expect(id > previous).toBe(true);
      previous = id;
      const created = row[at('created_at')];
      expect(new Date(created).toISOString()).toBe(created);
      expect(decodeTime(id.slice(4))).toBe(Date.parse(created));
      expect(row[at('subscribed_at')]).toBe(created);
      expect(row[at('updated_at')] >= created).toBe(true);
      const opened = row[at('last_opened_at')];
      if (opened !== '\\N') expect(new Date(opened).toISOString()).toBe(opened);
      expect(row[at('custom_fields')]).toBe('{}');
      expect(row[at('workspace_id')]).toBe('wsp_01TEST');
      expect(row[at('country')]).toMatch(/^([A-Z]{2}|\\N)$/);
    }
    const created = table.map((row) => Date.parse(row[at('created_at')]));
    expect(created[0]).toBeGreaterThanOrEqual(NOW - 5 * 365.25 * 86_400_000);
    expect(created[created.length - 1]).toBeLessThanOrEqual(NOW);
  });

  it('numbers emails from the offset, one per row', () => {
    const emails = rows(1_000, { offset: 7 }).map((row) => row[2]);
    expect(emails[0]).toBe('user7@seed.example');
    expect(emails[999]).toBe('user1006@seed.example');
    expect(new Set(emails).size).toBe(1_000);
  });

  it('spreads statuses mostly Active, the others present', () => {
    const counts = new Map<string, number>();
    for (const row of rows(20_000)) counts.set(row[4], (counts.get(row[4]) ?? 0) + 1);
    expect(counts.get('Active')! / 20_000).toBeGreaterThan(0.8);
    expect(counts.get('Active')! / 20_000).toBeLessThan(0.92);
    for (const status of ['Unsubscribed', 'Unconfirmed', 'Bounced', 'Complained', 'Blocked']) expect(counts.get(status)).toBeGreaterThan(0);
  });

  it('repeats the same content for the same seed (ids aside)', () => {
    const content = (table: string[][]) => table.map((row) => row.slice(1).join('|'));
    expect(content(rows(500, { seed: 7 }))).toEqual(content(rows(500, { seed: 7 })));
    expect(content(rows(500, { seed: 7 }))).not.toEqual(content(rows(500, { seed: 8 })));
  });

  it('fills custom_fields with weighted draws per field, leaving a field out when its draw is undefined', () => {
    const at = SUBSCRIBER_COLUMNS.indexOf('custom_fields');
    const generator = new SubscriberRowGenerator({
      workspaceId: 'wsp_01TEST',
      count: 4_000,
      offset: 0,
      years: 5,
      now: NOW,
      seed: 42,
      customFields: [
        {
          id: 'cf_n',
          values: [
            [5, 1],
            [500, 1],
            [undefined, 2],
          ],
        },
        {
          id: 'cf_t',
          values: [
            ['Tab\there "quoted" \\ ünï', 1],
            [true, 1],
          ],
        },
      ],
    });
    const lines = [...generator.batches(500)]
      .map((b) => b.toString('utf8'))
      .join('')
      .slice(0, -1)
      .split('\n');
    // COPY text format: undo its escapes, then the column is the JSON object PostgreSQL stores.
    const unescape = (text: string) => text.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? c);
    const objects = lines.map((line) => JSON.parse(unescape(line.split('\t')[at])) as Record<string, unknown>);
    expect(objects).toHaveLength(4_000);
    const numbers = objects.map((o) => o.cf_n);
    expect(new Set(numbers)).toEqual(new Set([5, 500, undefined]));
    expect(numbers.filter((n) => n === undefined).length / 4_000).toBeCloseTo(0.5, 1);
    expect(new Set(objects.map((o) => o.cf_t))).toEqual(new Set(['Tab\there "quoted" \\ ünï', true]));
  });

  it('keeps UTF-8 names intact', () => {
    const names = new Set(rows(20_000).map((row) => row[3]));
    expect([...names].some((name) => /[^\x20-\x7e]/.test(name))).toBe(true);
    for (const name of names) expect(name === '' || name.split(' ').length >= 2).toBe(true);
  });
});

describe('copyText', () => {
  it('escapes what COPY text format treats specially, and nothing else', () => {
    expect(copyText('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
    expect(copyText("O'Brien Müller")).toBe("O'Brien Müller");
    for (const name of [...FIRST_NAMES, ...LAST_NAMES]) expect(copyText(name)).toBe(name);
  });
});

describe('LatencySamples', () => {
  it('summarises exact values with nearest-rank percentiles', () => {
    const samples = new LatencySamples();
    for (let i = 1; i <= 100_000; i++) samples.add(i / 1000);
    expect(samples.count).toBe(100_000);
    expect(samples.summary()).toEqual({ avg: 50.001, p50: 50, p90: 90, p95: 95, p99: 99, max: 100 });
  });
});
