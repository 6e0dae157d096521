import type { CustomField, Prisma } from '@email/data-access';
import type { AudienceReferences, SegmentRepository } from '@email/audience-engine';
import { Outbox } from '@email/events';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import type { CursorCodec } from '@shared/pagination';
import { CustomFieldService } from '../custom-fields/custom-field.service';
import { toApiType } from '../custom-fields/custom-field-types';
import type { CustomFieldRepository } from '../custom-fields/custom-field.repository';
import type { SubscriberDto } from '../subscribers/subscriber.dto';
import { subscriberEmailTaken } from '../subscribers/subscriber.repository';
import { type LockedSubscriber, type NewConsentRecord, type NewSubscriber, type SubscriberChanges } from '../subscribers/subscriber.store';
import type { SubscriberStore } from '../subscribers/subscriber.store';
import { SubscriberService } from '../subscribers/subscriber.service';
import { tagKey, type TagRepository } from '../tags/tag.repository';

type Tx = Prisma.TransactionClient;

export interface StoredSubscriber extends LockedSubscriber {
  workspace_id: string;
  created_at: Date;
  updated_at: Date;
  tags: Set<string>;
  enrollments: Map<string, 'active' | 'removed'>;
}

/** Everything the fakes hold; cloned before each transaction and put back when the transaction throws. */
interface State {
  subscribers: Map<string, StoredSubscriber>;
  tags: Map<string, { workspace_id: string; name: string; subscriber_count: number }>;
  sequences: Map<string, { workspace_id: string }>;
  customFields: CustomField[];
  consents: Array<NewConsentRecord & { workspace_id: string; subscriber_id: string; recorded_at: Date }>;
  events: Array<{ workspace_id: string; type: string; payload: unknown }>;
}

const emptyState = (): State => ({ subscribers: new Map(), tags: new Map(), sequences: new Map(), customFields: [], consents: [], events: [] });

const iso = (date: Date) => date.toISOString();

/**
 * In-memory stand-ins for the audience repositories behind SubscriberService: the same answers as the SQL (per
 * workspace, only real changes counted), transactions that roll back on a throw, and a log of the calls in order.
 */
export class InMemoryAudience implements SubscriberStore {
  state = emptyState();
  /** Repository calls of the current or last transaction, in order. */
  calls: string[] = [];
  private readonly tx = { outboxEvent: { create: ({ data }: { data: State['events'][number] }) => this.state.events.push(data) } } as unknown as Tx;

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const before = structuredClone(this.state);
    this.calls = [];
    try {
      return await work(this.tx);
    } catch (error) {
      this.state = before;
      throw error;
    }
  }

  private subscriber(workspaceId: WorkspaceId, id: string): StoredSubscriber | undefined {
    const row = this.state.subscribers.get(id);
    return row?.workspace_id === workspaceId ? row : undefined;
  }

  private inWorkspace(workspaceId: WorkspaceId, table: Map<string, { workspace_id: string }>, ids: string[]): string[] {
    return ids.filter((id) => table.get(id)?.workspace_id === workspaceId);
  }

  private locked(row: StoredSubscriber): LockedSubscriber {
    const { id, email, name, status, country, subscribed_at, custom_fields } = row;
    return structuredClone({ id, email, name, status, country, subscribed_at, custom_fields });
  }

  async insertOrLock(workspaceId: WorkspaceId, _tx: Tx, row: NewSubscriber, now: Date): Promise<{ created: boolean } & LockedSubscriber> {
    this.calls.push('insertOrLock');
    const existing = [...this.state.subscribers.values()].find((s) => s.workspace_id === workspaceId && s.email === row.email);
    if (existing) return { created: false, ...this.locked(existing) };
    const stored: StoredSubscriber = {
      ...structuredClone(row),
      custom_fields: { ...row.custom_fields },
      workspace_id: workspaceId,
      created_at: now,
      updated_at: now,
      tags: new Set(),
      enrollments: new Map(),
    };
    this.state.subscribers.set(row.id, stored);
    return { created: true, ...this.locked(stored) };
  }

  async lock(workspaceId: WorkspaceId, _tx: Tx, id: string): Promise<LockedSubscriber | undefined> {
    this.calls.push('lock');
    const row = this.subscriber(workspaceId, id);
    return row && this.locked(row);
  }

  async update(workspaceId: WorkspaceId, _tx: Tx, id: string, changes: SubscriberChanges, now: Date): Promise<void> {
    this.calls.push('update');
    const row = this.subscriber(workspaceId, id);
    if (!row) throw Object.assign(new Error('No record was found for an update.'), { code: 'P2025' });
    // The unique (workspace_id, email) index.
    if (changes.email && [...this.state.subscribers.values()].some((s) => s.workspace_id === workspaceId && s.email === changes.email && s.id !== id)) {
      throw subscriberEmailTaken();
    }
    Object.assign(row, structuredClone(changes), { updated_at: now });
  }

  async touch(workspaceId: WorkspaceId, _tx: Tx, id: string, now: Date): Promise<void> {
    this.calls.push('touch');
    const row = this.subscriber(workspaceId, id);
    if (row) row.updated_at = now;
  }

  async addTags(workspaceId: WorkspaceId, _tx: Tx, subscriberId: string, tagIds: string[]): Promise<string[]> {
    this.calls.push('addTags');
    const row = this.subscriber(workspaceId, subscriberId);
    if (!row) return [];
    const added = [...new Set(this.inWorkspace(workspaceId, this.state.tags, tagIds))].filter((id) => !row.tags.has(id));
    added.forEach((id) => row.tags.add(id));
    return added;
  }

  async removeTag(workspaceId: WorkspaceId, _tx: Tx, subscriberId: string, tagId: string): Promise<boolean> {
    this.calls.push('removeTag');
    return this.subscriber(workspaceId, subscriberId)?.tags.delete(tagId) ?? false;
  }

  async bumpTagCounts(workspaceId: WorkspaceId, _tx: Tx, tagIds: string[], delta: 1 | -1): Promise<void> {
    this.calls.push('bumpTagCounts');
    for (const id of this.inWorkspace(workspaceId, this.state.tags, tagIds)) this.state.tags.get(id)!.subscriber_count += delta;
  }

  async enroll(workspaceId: WorkspaceId, _tx: Tx, subscriberId: string, sequenceIds: string[]): Promise<number> {
    this.calls.push('enroll');
    const row = this.subscriber(workspaceId, subscriberId);
    const changed = row
      ? [...new Set(this.inWorkspace(workspaceId, this.state.sequences, sequenceIds))].filter((id) => row.enrollments.get(id) !== 'active')
      : [];
    changed.forEach((id) => row!.enrollments.set(id, 'active'));
    return changed.length;
  }

  async unenroll(workspaceId: WorkspaceId, _tx: Tx, subscriberId: string, sequenceId: string): Promise<boolean> {
    this.calls.push('unenroll');
    const row = this.subscriber(workspaceId, subscriberId);
    if (row?.enrollments.get(sequenceId) !== 'active') return false;
    row.enrollments.set(sequenceId, 'removed');
    return true;
  }

  async existingSequences(workspaceId: WorkspaceId, _tx: Tx, ids: string[]): Promise<Set<string>> {
    this.calls.push('existingSequences');
    return new Set(this.inWorkspace(workspaceId, this.state.sequences, ids));
  }

  async recordConsent(workspaceId: WorkspaceId, _tx: Tx, subscriberId: string, consent: NewConsentRecord, now: Date): Promise<void> {
    this.calls.push('recordConsent');
    if (this.subscriber(workspaceId, subscriberId))
      this.state.consents.push({ ...consent, workspace_id: workspaceId, subscriber_id: subscriberId, recorded_at: now });
  }

  page(): Promise<never> {
    throw new Error('The list is SQL-only: subscriber-page.int-spec.ts covers it.');
  }

  async delete(workspaceId: WorkspaceId, id: string): Promise<boolean> {
    this.calls.push('delete');
    const row = this.subscriber(workspaceId, id);
    if (!row) return false;
    row.tags.forEach((tagId) => this.state.tags.get(tagId)!.subscriber_count--);
    return this.state.subscribers.delete(id);
  }

  async view(workspaceId: WorkspaceId, id: string): Promise<SubscriberDto | undefined> {
    this.calls.push('view');
    const row = this.subscriber(workspaceId, id);
    if (!row) return undefined;
    const tags = [...row.tags].map((tagId) => ({ id: tagId, name: this.state.tags.get(tagId)!.name })).sort((a, b) => a.name.localeCompare(b.name));
    return {
      self: `/v1/subscribers/${row.id}`,
      id: row.id,
      email: row.email,
      name: row.name,
      status: row.status,
      country: row.country,
      subscribed_at: iso(row.subscribed_at),
      last_opened_at: null,
      tags,
      sequence_ids: [...row.enrollments].filter(([, state]) => state === 'active').map(([sequenceId]) => sequenceId),
      custom_fields: structuredClone(row.custom_fields),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  }

  /** TagRepository's part: lookups and find-or-create by name, per workspace. */
  readonly tagStore: Pick<TagRepository, 'existing' | 'findOrCreateByNames'> = {
    existing: async (workspaceId, _tx, ids) => {
      this.calls.push('tags.existing');
      return new Set(this.inWorkspace(workspaceId, this.state.tags, ids));
    },
    findOrCreateByNames: async (workspaceId, _tx, names, newId) => {
      this.calls.push('tags.findOrCreateByNames');
      const keys = [...new Set(names.map(tagKey))].sort();
      return keys.map((key) => {
        const found = [...this.state.tags].find(([, tag]) => tag.workspace_id === workspaceId && tagKey(tag.name) === key);
        if (found) return found[0];
        const id = newId();
        this.state.tags.set(id, { workspace_id: workspaceId, name: names.find((name) => tagKey(name) === key)!.trim(), subscriber_count: 0 });
        return id;
      });
    },
  };

  /** CustomFieldRepository's part the subscriber writes read: field definitions by id, per workspace. */
  readonly customFieldStore: Pick<CustomFieldRepository, 'definitions'> = {
    definitions: async (workspaceId, _tx, ids) =>
      this.state.customFields
        .filter((field) => field.workspace_id === workspaceId && ids.includes(field.id))
        .map((field) => ({ id: field.id, type: toApiType(field.type), options: field.options })),
  };

  // Seeding helpers: rows as a previous request would have left them.

  addSubscriber(
    workspaceId: WorkspaceId,
    row: Partial<StoredSubscriber> & { id: string; email: string },
    tagIds: string[] = [],
    sequenceIds: string[] = [],
  ): void {
    const at = new Date('2026-01-01T00:00:00.000Z');
    this.state.subscribers.set(row.id, {
      name: '',
      status: 'Active',
      country: null,
      subscribed_at: at,
      custom_fields: {},
      created_at: at,
      updated_at: at,
      ...row,
      workspace_id: workspaceId,
      tags: new Set(tagIds),
      enrollments: new Map(sequenceIds.map((id) => [id, 'active'])),
    });
    tagIds.forEach((id) => this.state.tags.get(id)!.subscriber_count++);
  }

  addTag(workspaceId: WorkspaceId, id: string, name: string): void {
    this.state.tags.set(id, { workspace_id: workspaceId, name, subscriber_count: 0 });
  }

  addSequence(workspaceId: WorkspaceId, id: string): void {
    this.state.sequences.set(id, { workspace_id: workspaceId });
  }

  addCustomField(workspaceId: WorkspaceId, field: Pick<CustomField, 'id' | 'type' | 'options'>): void {
    const at = new Date('2026-01-01T00:00:00.000Z');
    this.state.customFields.push({ ...field, workspace_id: workspaceId, label: field.id, label_key: field.id, created_at: at, updated_at: at });
  }
}

/** Ids a test can predict: prefix_1, prefix_2, … in call order. */
export class CountingIds extends IdGenerator {
  private count = 0;
  override newId(prefix: string): string {
    return `${prefix}_${++this.count}`;
  }
}

export class FixedClock extends Clock {
  constructor(private readonly instant: Date) {
    super();
  }
  override now(): Date {
    return new Date(this.instant);
  }
}

/** A SubscriberService over the in-memory audience; the list's cursor codec is not needed by the writes. */
export function inMemorySubscriberService(audience: InMemoryAudience, clock: Clock): SubscriberService {
  const ids = new CountingIds();
  // Subscriber writes never delete a custom field, so the segment lock and references its delete needs are absent.
  const customFields = new CustomFieldService(
    audience.customFieldStore as CustomFieldRepository,
    undefined as unknown as SegmentRepository,
    undefined as unknown as AudienceReferences,
    ids,
    undefined as unknown as CursorCodec,
  );
  // The tag and custom field repositories have private members, so their structural fakes need a cast.
  return new SubscriberService(audience, audience.tagStore as TagRepository, customFields, new Outbox(ids), ids, clock, undefined as unknown as CursorCodec);
}
