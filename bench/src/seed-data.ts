import { TimeOrderedIds } from './ids';

/** The subscribers columns the seed fills, in COPY order (everything else keeps its default). */
export const SUBSCRIBER_COLUMNS = [
  'id',
  'workspace_id',
  'email',
  'name',
  'status',
  'country',
  'subscribed_at',
  'last_opened_at',
  'custom_fields',
  'created_at',
  'updated_at',
] as const;

export const SEED_EMAIL_DOMAIN = 'seed.example';

export const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Sophia',
  'Elijah',
  'Charlotte',
  'James',
  'Ava',
  'William',
  'Mia',
  'Lucas',
  'Isabella',
  'Henry',
  'Harper',
  'Theodore',
  'Evelyn',
  'Jack',
  'Luna',
  'Leo',
  'Camila',
  'Mateo',
  'Sofia',
  'Benjamin',
  'Aria',
  'Santiago',
  'Hannah',
  'Lea',
  'Lukas',
  'Emilia',
  'Finn',
  'Mila',
  'Jonas',
  'Clara',
  'Louis',
  'Chloe',
  'Hugo',
  'Ines',
  'Arthur',
  'Giulia',
  'Marco',
  'Lucia',
  'Pablo',
  'Yuki',
  'Haruto',
  'Aiko',
  'Priya',
  'Arjun',
  'Ananya',
  'Wei',
  'Mei',
  'Chen',
  'Fatima',
  'Omar',
  'Amara',
  'Kwame',
  'Zoe',
  'Nora',
  'Elias',
  'Maja',
  'Anna',
  'Jan',
  'Zofia',
  'Ana',
  'João',
  'Beatriz',
  'Renée',
  'Zoë',
  'Björn',
  'Søren',
];

export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Thompson',
  'White',
  'Harris',
  'Clark',
  'Lewis',
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Dubois',
  'Moreau',
  'Laurent',
  'Bernard',
  'Rossi',
  'Russo',
  'Bianchi',
  'Fernández',
  'González',
  'Silva',
  'Santos',
  'Oliveira',
  'Kowalski',
  'Nowak',
  'Jansen',
  'de Vries',
  'Andersson',
  'Nielsen',
  'Sato',
  'Suzuki',
  'Takahashi',
  'Patel',
  'Sharma',
  'Singh',
  'Wang',
  'Li',
  'Zhang',
  'Kim',
  'Park',
  'Nguyen',
  'Okafor',
  'Mensah',
  "O'Brien",
  'Murphy',
  'Kelly',
  'MacDonald',
  'Cohen',
  'Levi',
  'Novak',
  'Horvat',
  'Popescu',
  'Ivanova',
  'Yilmaz',
  'Haddad',
];

/** [value, weight]: most subscribers are Active, with a realistic tail of the other states. */
export const STATUS_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['Active', 86],
  ['Unsubscribed', 6],
  ['Unconfirmed', 4],
  ['Bounced', 2],
  ['Complained', 1],
  ['Blocked', 1],
];

/** [ISO 3166-1 alpha-2 or null, weight]. */
export const COUNTRY_WEIGHTS: ReadonlyArray<readonly [string | null, number]> = [
  ['US', 30],
  ['GB', 8],
  ['DE', 7],
  ['IN', 6],
  ['FR', 5],
  ['CA', 5],
  ['BR', 4],
  ['AU', 3],
  ['NL', 3],
  ['ES', 3],
  ['IT', 3],
  ['MX', 2],
  ['SE', 2],
  ['PL', 2],
  ['JP', 2],
  ['IE', 1],
  ['BE', 1],
  ['CH', 1],
  ['AT', 1],
  ['DK', 1],
  ['NO', 1],
  ['PT', 1],
  ['NG', 1],
  ['ZA', 1],
  ['KR', 1],
  ['SG', 1],
  ['NZ', 1],
  [null, 8],
];

const YEAR_MS = 365.25 * 24 * 3600 * 1000;
const NULL = '\\N';

export interface SeedDataOptions {
  workspaceId: string;
  count: number;
  /** The first email number: emails are user<offset>..user<offset+count-1>@seed.example. */
  offset: number;
  /** created_at is spread evenly over the `years` before `now`. */
  years: number;
  now: number;
  /** Seeds the content (names, statuses, countries, times); ids are always random. */
  seed: number;
  /** Values drawn into `custom_fields` (default: none, so every row has `{}`). */
  customFields?: readonly SeedCustomField[];
}

/**
 * A custom field the generator fills: `values` are [JSON value, weight] pairs, drawn independently for each row and
 * field; `undefined` leaves the field out of that row's object.
 */
export interface SeedCustomField {
  id: string;
  values: ReadonlyArray<readonly [unknown, number]>;
}

/** A small, fast, seedable PRNG (mulberry32): same seed, same data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Expands [value, weight] pairs into a 1,000-slot table, so a draw is one array index. */
function weightedTable<T>(weights: ReadonlyArray<readonly [T, number]>): T[] {
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  const table: T[] = [];
  for (const [value, weight] of weights) {
    const slots = Math.round((weight / total) * 1000);
    for (let i = 0; i < slots; i++) table.push(value);
  }
  return table;
}

/** Escapes a value for COPY's text format (backslash, tab, newline, carriage return). */
export function copyText(value: string): string {
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!) : value;
}

const DAY_MS = 86_400_000;
const ASCII = (text: string) => Buffer.from(text, 'latin1');
const TAB = 9;
const NEWLINE = 10;

/**
 * Generates subscribers rows in COPY text format straight into Buffers, in created_at order (the order
 * real data arrives in, and the cheapest for the time-ordered primary key and the (workspace_id,
 * created_at) index). Writing bytes instead of building strings keeps the garbage collector out of
 * the way: about 10x faster than template strings + toISOString(), so PostgreSQL, not this loop,
 * is the bottleneck of a seed.
 */
export class SubscriberRowGenerator {
  private readonly random: () => number;
  private readonly ids = new TimeOrderedIds('sub');
  private readonly statuses: Buffer[];
  private readonly statusOpens: number[];
  private readonly countries: Buffer[];
  private readonly names: Buffer[];
  private readonly workspaceId: Buffer;
  private readonly emailSuffix = ASCII(`@${SEED_EMAIL_DOMAIN}\t`);
  private readonly start: number;
  private readonly step: number;
  private readonly maxRowBytes: number;
  /** Per custom field, its weighted `"id":value` fragments (undefined: left out), already COPY-escaped. */
  private readonly fieldFragments: Array<Array<Buffer | undefined>>;
  /** 'YYYY-MM-DDT' per day number (index: day since the epoch). */
  private readonly dayPrefixes: Buffer[] = [];
  private buffer = Buffer.alloc(0);
  private pos = 0;
  private index = 0;

  constructor(private readonly options: SeedDataOptions) {
    if (options.offset + options.count > Number.MAX_SAFE_INTEGER) throw new RangeError('offset + count is too large');
    this.random = mulberry32(options.seed);
    this.workspaceId = Buffer.from(copyText(options.workspaceId), 'utf8');
    this.start = options.now - options.years * YEAR_MS;
    this.step = (options.now - this.start) / Math.max(options.count, 1);
    const statuses = weightedTable(STATUS_WEIGHTS);
    this.statuses = statuses.map((s) => ASCII(s));
    // Share of each status that has ever opened an email (and so has last_opened_at).
    this.statusOpens = statuses.map((s) => (s === 'Active' ? 0.7 : s === 'Unsubscribed' || s === 'Complained' ? 0.5 : 0));
    this.countries = weightedTable(COUNTRY_WEIGHTS).map((c) => ASCII(c ?? NULL));
    this.names = FIRST_NAMES.flatMap((first) => LAST_NAMES.map((last) => Buffer.from(copyText(`${first} ${last}`), 'utf8')));
    const longestName = Math.max(...this.names.map((n) => n.length));
    this.fieldFragments = (options.customFields ?? []).map((field) =>
      weightedTable(field.values).map((value) =>
        value === undefined ? undefined : Buffer.from(copyText(`${JSON.stringify(field.id)}:${JSON.stringify(value)}`), 'utf8'),
      ),
    );
    // The longest fragment of each field, plus a ", " between them.
    const longestFields = this.fieldFragments.reduce((sum, fragments) => sum + 2 + Math.max(0, ...fragments.map((f) => f?.length ?? 0)), 0);
    // id 30 + email <= 35 + status 12 + country 2 + 4 timestamps 96 + {} + 10 tabs + newline, rounded up.
    this.maxRowBytes = 200 + this.workspaceId.length + longestName + longestFields;
  }

  get generated(): number {
    return this.index;
  }

  get done(): boolean {
    return this.index >= this.options.count;
  }

  /** The next up-to-`size` rows as one Buffer (empty when done). A new Buffer each call: it can be queued. */
  nextBatch(size: number): Buffer {
    const end = Math.min(this.index + size, this.options.count);
    this.buffer = Buffer.allocUnsafe((end - this.index) * this.maxRowBytes);
    this.pos = 0;
    const { now, offset } = this.options;
    const random = this.random;
    for (let i = this.index; i < end; i++) {
      // Non-decreasing: (i + r) * step < (i + 1) * step.
      const created = Math.floor(this.start + (i + random()) * this.step);
      const status = (random() * this.statuses.length) | 0;
      const country = this.countries[(random() * this.countries.length) | 0];
      const name = random() < 0.04 ? undefined : this.names[(random() * this.names.length) | 0];
      const age = now - created;
      const opens = this.statusOpens[status];
      const lastOpened = opens && random() < opens ? created + Math.floor(random() * age) : -1;
      const updated = random() < 0.3 ? created + Math.floor(random() * age) : created;

      this.pos = this.ids.write(created, this.buffer, this.pos);
      this.tab();
      this.bytes(this.workspaceId);
      this.tab();
      this.ascii('user');
      this.integer(offset + i);
      this.bytes(this.emailSuffix);
      if (name) this.bytes(name);
      this.tab();
      this.bytes(this.statuses[status]);
      this.tab();
      this.bytes(country);
      this.tab();
      this.timestamp(created); // subscribed_at
      this.tab();
      if (lastOpened < 0) this.ascii(NULL);
      else this.timestamp(lastOpened);
      this.tab();
      this.customFields();
      this.tab();
      this.timestamp(created);
      this.tab();
      this.timestamp(updated);
      this.buffer[this.pos++] = NEWLINE;
    }
    this.index = end;
    return this.buffer.subarray(0, this.pos);
  }

  /** Every remaining row, `batchSize` rows per chunk. */
  *batches(batchSize: number): Generator<Buffer> {
    while (!this.done) yield this.nextBatch(batchSize);
  }

  /** `{}`, or one draw per custom field (only when there are fields, so a seed without them draws exactly as before). */
  private customFields(): void {
    this.buffer[this.pos++] = 123; // {
    let first = true;
    for (const fragments of this.fieldFragments) {
      const fragment = fragments[(this.random() * fragments.length) | 0];
      if (!fragment) continue;
      if (!first) this.ascii(', ');
      first = false;
      this.bytes(fragment);
    }
    this.buffer[this.pos++] = 125; // }
  }

  private tab(): void {
    this.buffer[this.pos++] = TAB;
  }

  /** A byte loop: for these few-byte values it beats Buffer#copy (which has a per-call cost). */
  private bytes(source: Buffer): void {
    const { buffer } = this;
    let pos = this.pos;
    for (let i = 0; i < source.length; i++) buffer[pos++] = source[i];
    this.pos = pos;
  }

  /** ASCII-only text (constants). */
  private ascii(text: string): void {
    const { buffer } = this;
    let pos = this.pos;
    for (let i = 0; i < text.length; i++) buffer[pos++] = text.charCodeAt(i);
    this.pos = pos;
  }

  private integer(value: number): void {
    const start = this.pos;
    do {
      this.buffer[this.pos++] = 48 + (value % 10);
      value = Math.floor(value / 10);
    } while (value > 0);
    this.buffer.subarray(start, this.pos).reverse();
  }

  private digits(value: number, width: number): void {
    for (let i = width - 1; i >= 0; i--) {
      this.buffer[this.pos + i] = 48 + (value % 10);
      value = (value / 10) | 0;
    }
    this.pos += width;
  }

  /** `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC), like toISOString() but without allocating. */
  private timestamp(ms: number): void {
    const day = Math.floor(ms / DAY_MS);
    let prefix = this.dayPrefixes[day];
    if (prefix === undefined) {
      prefix = ASCII(new Date(day * DAY_MS).toISOString().slice(0, 11));
      this.dayPrefixes[day] = prefix;
    }
    this.bytes(prefix);
    let rest = ms - day * DAY_MS;
    const millis = rest % 1000;
    rest = (rest - millis) / 1000;
    const seconds = rest % 60;
    rest = (rest - seconds) / 60;
    this.digits((rest / 60) | 0, 2);
    this.buffer[this.pos++] = 58; // :
    this.digits(rest % 60, 2);
    this.buffer[this.pos++] = 58;
    this.digits(seconds, 2);
    this.buffer[this.pos++] = 46; // .
    this.digits(millis, 3);
    this.buffer[this.pos++] = 90; // Z
  }
}
