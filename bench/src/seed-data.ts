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
  'Olivia', 'Liam', 'Emma', 'Noah', 'Amelia', 'Oliver', 'Sophia', 'Elijah', 'Charlotte', 'James', 'Ava', 'William', 'Mia', 'Lucas',
  'Isabella', 'Henry', 'Harper', 'Theodore', 'Evelyn', 'Jack', 'Luna', 'Leo', 'Camila', 'Mateo', 'Sofia', 'Benjamin', 'Aria',
  'Santiago', 'Hannah', 'Lea', 'Lukas', 'Emilia', 'Finn', 'Mila', 'Jonas', 'Clara', 'Louis', 'Chloe', 'Hugo', 'Ines', 'Arthur', 'Giulia',
  'Marco', 'Lucia', 'Pablo', 'Yuki', 'Haruto', 'Aiko', 'Priya', 'Arjun', 'Ananya', 'Wei', 'Mei', 'Chen', 'Fatima', 'Omar', 'Amara',
  'Kwame', 'Zoe', 'Nora', 'Elias', 'Maja', 'Anna', 'Jan', 'Zofia', 'Ana', 'João', 'Beatriz', 'Renée', 'Zoë', 'Björn', 'Søren',
];

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez',
  'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis',
  'Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Dubois', 'Moreau', 'Laurent', 'Bernard', 'Rossi', 'Russo', 'Bianchi',
  'Fernández', 'González', 'Silva', 'Santos', 'Oliveira', 'Kowalski', 'Nowak', 'Jansen', 'de Vries', 'Andersson', 'Nielsen',
  'Sato', 'Suzuki', 'Takahashi', 'Patel', 'Sharma', 'Singh', 'Wang', 'Li', 'Zhang', 'Kim', 'Park', 'Nguyen', 'Okafor', 'Mensah',
  "O'Brien", 'Murphy', 'Kelly', 'MacDonald', 'Cohen', 'Levi', 'Novak', 'Horvat', 'Popescu', 'Ivanova', 'Yilmaz', 'Haddad',
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
  ['US', 30], ['GB', 8], ['DE', 7], ['IN', 6], ['FR', 5], ['CA', 5], ['BR', 4], ['AU', 3], ['NL', 3], ['ES', 3], ['IT', 3],
  ['MX', 2], ['SE', 2], ['PL', 2], ['JP', 2], ['IE', 1], ['BE', 1], ['CH', 1], ['AT', 1], ['DK', 1], ['NO', 1], ['PT', 1],
  ['NG', 1], ['ZA', 1], ['KR', 1], ['SG', 1], ['NZ', 1], [null, 8],
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

/**
 * Generates subscribers rows as COPY text-format lines, in created_at order (the order real data
 * arrives in, and the cheapest for the time-ordered primary key and (workspace_id, created_at) index).
 */
export class SubscriberRowGenerator {
  private readonly random: () => number;
  private readonly ids = new TimeOrderedIds('sub');
  private readonly statuses = weightedTable(STATUS_WEIGHTS);
  private readonly countries = weightedTable(COUNTRY_WEIGHTS).map((c) => c ?? NULL);
  private readonly names: string[];
  private readonly workspaceId: string;
  private readonly start: number;
  private readonly step: number;
  private index = 0;

  constructor(private readonly options: SeedDataOptions) {
    this.random = mulberry32(options.seed);
    this.workspaceId = copyText(options.workspaceId);
    this.start = options.now - options.years * YEAR_MS;
    this.step = (options.now - this.start) / Math.max(options.count, 1);
    this.names = FIRST_NAMES.flatMap((first) => LAST_NAMES.map((last) => copyText(`${first} ${last}`)));
  }

  get generated(): number {
    return this.index;
  }

  get done(): boolean {
    return this.index >= this.options.count;
  }

  /** The next up-to-`size` rows as one string (empty when done). */
  nextBatch(size: number): string {
    const end = Math.min(this.index + size, this.options.count);
    const { now, offset } = this.options;
    const random = this.random;
    let out = '';
    for (let i = this.index; i < end; i++) {
      // Non-decreasing: (i + r) * step < (i + 1) * step.
      const created = Math.floor(this.start + (i + random()) * this.step);
      const createdText = new Date(created).toISOString();
      const status = this.statuses[(random() * this.statuses.length) | 0];
      const country = this.countries[(random() * this.countries.length) | 0];
      const name = random() < 0.04 ? '' : this.names[(random() * this.names.length) | 0];
      const age = now - created;
      let lastOpened = NULL;
      const opens = status === 'Active' ? 0.7 : status === 'Unsubscribed' || status === 'Complained' ? 0.5 : 0;
      if (opens && random() < opens) lastOpened = new Date(created + Math.floor(random() * age)).toISOString();
      const updated = random() < 0.3 ? new Date(created + Math.floor(random() * age)).toISOString() : createdText;
      out += `${this.ids.next(created)}\t${this.workspaceId}\tuser${offset + i}@${SEED_EMAIL_DOMAIN}\t${name}\t${status}\t${country}\t${createdText}\t${lastOpened}\t{}\t${createdText}\t${updated}\n`;
    }
    this.index = end;
    return out;
  }

  /** Every remaining row, `batchSize` rows per chunk. */
  *batches(batchSize: number): Generator<string> {
    while (!this.done) yield this.nextBatch(batchSize);
  }
}
