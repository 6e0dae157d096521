import { Injectable } from '@nestjs/common';
import { EmailErrors } from '@email/contracts';
import { Outbox } from '@email/events';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import { CursorCodec, KeysetPosition, readKeysetPage } from '@shared/pagination';
import { isBlank } from '../common/blank';
import { SqlTransaction } from '../common/sql-transaction';
import { ConsentEvidenceDto } from '../common/consent.dto';
import { toCountryCode } from '../common/country';
import { parseCalendarDate } from '../common/dates';
import { CustomFieldService } from '../custom-fields/custom-field.service';
import { normalizeCustomFields } from '../custom-fields/custom-field-values';
import { TagRepository } from '../tags/tag.repository';
import { acceptedEmail, emailIdentity } from './email-identity';
import { activationNeedsConsent } from './subscriber-values';
import {
  SubscriberDto,
  SubscriberListQueryDto,
  SubscriberStatusName,
  SubscriberStatusRequestDto,
  SubscriberUpdateRequestDto,
  SubscriberUpsertRequestDto,
} from './subscriber.dto';
import { LockedSubscriber, SubscriberChanges, SubscriberFilter } from './subscriber.store';
import { SubscriberStore } from './subscriber.store';

/**
 * How firmly each status stops sending. Delivery feedback only ever moves a subscriber up this order: a hard bounce
 * leaves the recipient's own unsubscribe (and a complaint) as it is, a complaint outranks an unsubscribe, and Blocked
 * (the workspace's own decision) is never changed by a provider.
 */
export const DELIVERY_FEEDBACK_PRECEDENCE: Readonly<Record<SubscriberStatusName, number>> = {
  Active: 0,
  Unconfirmed: 0,
  Bounced: 1,
  Unsubscribed: 2,
  Complained: 3,
  Blocked: 4,
};

/** A subscriber is cold without an open in this many days. */
const COLD_AFTER_DAYS = 90;
const DAY_MS = 86_400_000;

/** The requested changes that really differ from what is stored; custom field values merge into the saved ones. */
function changesFrom(current: LockedSubscriber, requested: SubscriberChanges): SubscriberChanges {
  const changes: SubscriberChanges = {};
  if (requested.email !== undefined && requested.email !== current.email) changes.email = requested.email;
  if (requested.name !== undefined && requested.name !== current.name) changes.name = requested.name;
  if (requested.status !== undefined && requested.status !== current.status) changes.status = requested.status;
  if (requested.country !== undefined && requested.country !== current.country) changes.country = requested.country;
  if (requested.subscribed_at && requested.subscribed_at.getTime() !== current.subscribed_at.getTime()) changes.subscribed_at = requested.subscribed_at;
  if (requested.custom_fields) {
    const merged = { ...current.custom_fields, ...requested.custom_fields };
    if (JSON.stringify(merged) !== JSON.stringify(current.custom_fields)) changes.custom_fields = merged;
  }
  return changes;
}
const splitIds = (single?: string[], comma?: string) => [
  ...new Set([...(single ?? []), ...(comma ? comma.split(',') : [])].map((id) => id.trim()).filter(Boolean)),
];

/**
 * Subscriber use cases. Every write runs in one transaction with its tag counters, enrollments,
 * consent record and outbox events, so a rejected request leaves nothing behind.
 */
@Injectable()
export class SubscriberService {
  constructor(
    private readonly repository: SubscriberStore,
    private readonly tags: TagRepository,
    private readonly customFields: CustomFieldService,
    private readonly outbox: Outbox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly cursors: CursorCodec,
  ) {}

  /** The list response, already serialized: PostgreSQL builds the documents, Node adds the pagination. */
  async listJson(workspaceId: WorkspaceId, query: SubscriberListQueryDto): Promise<string> {
    const scope = `${workspaceId}:subscribers`;
    const page = readKeysetPage(this.cursors, scope, query);
    const filter: SubscriberFilter = {
      search: query.search?.trim() || undefined,
      email: query.email ? emailIdentity(query.email) : undefined,
      status: query.status,
      coldBefore: query.cold_only === 'true' ? new Date(this.clock.now().getTime() - COLD_AFTER_DAYS * DAY_MS) : undefined,
      tagIds: splitIds(query.tag_id, query.tag_ids),
      tagOperator: query.tag_operator,
      sequenceIds: splitIds(query.sequence_id, query.sequence_ids),
      sequenceOperator: query.sequence_operator,
    };
    const result = await this.repository.page(workspaceId, filter, page);
    const hasMore = result.fetched > page.limit;
    const nextCursor = hasMore ? this.cursors.encode(scope, { created_at: result.last_created_at!, id: result.last_id! } satisfies KeysetPosition) : null;
    return `{"data":${result.data},"pagination":${JSON.stringify({ has_more: hasMore, next_cursor: nextCursor })}}`;
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<SubscriberDto> {
    const subscriber = await this.repository.view(workspaceId, id);
    if (!subscriber) throw EmailErrors.notFound('subscriber', id);
    return subscriber;
  }

  /** Creates or updates by email. Returns whether the subscriber was created (201) or updated (200). */
  async upsert(workspaceId: WorkspaceId, input: SubscriberUpsertRequestDto): Promise<{ created: boolean; subscriber: SubscriberDto }> {
    const email = acceptedEmail(input.email);
    const status = isBlank(input.status) ? undefined : (input.status as SubscriberStatusName);
    this.checkConsentTime(input.consent_evidence);

    return this.repository.transaction(async (tx) => {
      const profile = await this.profileChanges(workspaceId, tx, input);
      const now = this.clock.now();
      const tagIds = await this.resolveTags(workspaceId, tx, input.existing_tag_ids ?? [], input.new_tags ?? [], now);
      await this.requireSequences(workspaceId, tx, input.sequence_ids ?? [], 'sequence_ids');
      const saved = await this.repository.insertOrLock(
        workspaceId,
        tx,
        {
          id: this.ids.newId('sub'),
          email,
          name: profile.name ?? '',
          status: status ?? 'Active',
          country: profile.country ?? null,
          subscribed_at: profile.subscribed_at ?? now,
          custom_fields: profile.custom_fields ?? {},
        },
        now,
      );
      let addedTags: string[];
      if (!saved.created) {
        if (input.create_only) throw EmailErrors.fail('subscriber_exists', 'A subscriber with this email already exists.', { details: { field: 'email' } });
        this.requireConsentToActivate(saved.status, status, input.consent_evidence);
        const changes = changesFrom(saved, { ...profile, ...(status ? { status } : {}) });
        if (Object.keys(changes).length) await this.repository.update(workspaceId, tx, saved.id, changes, now);
        // A status change has its own event; subscriber.updated lists the other fields that changed.
        const updatedFields = Object.keys(changes).filter((field) => field !== 'status');
        addedTags = await this.membershipChanges(workspaceId, tx, saved.id, tagIds, input.sequence_ids ?? [], updatedFields, now);
        if (updatedFields.length && !Object.keys(changes).length) await this.repository.touch(workspaceId, tx, saved.id, now);
        if (updatedFields.length)
          await this.outbox.record(workspaceId, tx, 'subscriber.updated', { subscriber: { id: saved.id }, changed_fields: updatedFields });
        if (status && status !== saved.status) await this.recordStatusChange(workspaceId, tx, saved.id, saved.status, status);
      } else {
        addedTags = await this.membershipChanges(workspaceId, tx, saved.id, tagIds, input.sequence_ids ?? [], [], now);
        await this.outbox.record(workspaceId, tx, 'subscriber.created', { subscriber: { id: saved.id }, status: status ?? 'Active' });
      }
      if (input.consent_evidence) await this.recordConsent(workspaceId, tx, saved.id, input.consent_evidence, now);
      // The counters move last: in the statement that reads the document, right before commit (see bumpTagCounts).
      await this.repository.bumpTagCounts(workspaceId, tx, addedTags, 1);
      const subscriber = (await this.repository.view(workspaceId, saved.id, tx))!;
      return { created: saved.created, subscriber };
    });
  }

  async update(workspaceId: WorkspaceId, id: string, input: SubscriberUpdateRequestDto): Promise<SubscriberDto> {
    return this.repository.transaction(async (tx) => {
      const profile = await this.profileChanges(workspaceId, tx, input);
      const current = await this.requireSubscriber(workspaceId, tx, id);
      const changes = changesFrom(current, { ...profile, ...(isBlank(input.email) ? {} : { email: acceptedEmail(input.email!) }) });
      const changedFields = Object.keys(changes);
      if (changedFields.length) {
        await this.repository.update(workspaceId, tx, id, changes, this.clock.now());
        await this.outbox.record(workspaceId, tx, 'subscriber.updated', { subscriber: { id }, changed_fields: changedFields });
      }
      return (await this.repository.view(workspaceId, id, tx))!;
    });
  }

  async setStatus(workspaceId: WorkspaceId, id: string, input: SubscriberStatusRequestDto): Promise<SubscriberDto> {
    this.checkConsentTime(input.consent_evidence);
    return this.repository.transaction(async (tx) => {
      const now = this.clock.now();
      const current = await this.requireSubscriber(workspaceId, tx, id);
      this.requireConsentToActivate(current.status, input.status, input.consent_evidence);
      if (input.status !== current.status) {
        await this.repository.update(workspaceId, tx, id, { status: input.status }, now);
        await this.recordStatusChange(workspaceId, tx, id, current.status, input.status);
      }
      if (input.consent_evidence) await this.recordConsent(workspaceId, tx, id, input.consent_evidence, now);
      return (await this.repository.view(workspaceId, id, tx))!;
    });
  }

  /**
   * The recipient's own opt-out (an unsubscribe link): sets Unsubscribed with its status-change event, no consent
   * evidence. Idempotent under the row lock: `changed` is true for exactly one caller. Null when there is no such subscriber.
   */
  async unsubscribe(workspaceId: WorkspaceId, id: string): Promise<{ changed: boolean; subscriber: SubscriberDto } | null> {
    return this.repository.transaction(async (tx) => {
      const current = await this.repository.lock(workspaceId, tx, id);
      if (!current) return null;
      const changed = current.status !== 'Unsubscribed';
      if (changed) {
        await this.repository.update(workspaceId, tx, id, { status: 'Unsubscribed' }, this.clock.now());
        await this.recordStatusChange(workspaceId, tx, id, current.status, 'Unsubscribed');
      }
      return { changed, subscriber: (await this.repository.view(workspaceId, id, tx))! };
    });
  }

  /**
   * A delivery provider's report about the recipient (a hard bounce: Bounced; a spam complaint: Complained), in the
   * caller's transaction so it commits with the caller's record of the report: sets the status with its status-change
   * event unless the current one ranks as high (DELIVERY_FEEDBACK_PRECEDENCE). Null when there is no such subscriber.
   */
  async applyDeliveryFeedback(
    workspaceId: WorkspaceId,
    tx: SqlTransaction,
    id: string,
    status: 'Bounced' | 'Complained',
  ): Promise<{ changed: boolean; previous: SubscriberStatusName } | null> {
    const current = await this.repository.lock(workspaceId, tx, id);
    if (!current) return null;
    const changed = DELIVERY_FEEDBACK_PRECEDENCE[status] > DELIVERY_FEEDBACK_PRECEDENCE[current.status];
    if (changed) {
      await this.repository.update(workspaceId, tx, id, { status }, this.clock.now());
      await this.recordStatusChange(workspaceId, tx, id, current.status, status);
    }
    return { changed, previous: current.status };
  }

  async delete(workspaceId: WorkspaceId, id: string): Promise<void> {
    if (!(await this.repository.delete(workspaceId, id))) throw EmailErrors.notFound('subscriber', id);
  }

  addTag(workspaceId: WorkspaceId, id: string, tagId: string): Promise<SubscriberDto> {
    return this.changeMembership(workspaceId, id, 'tags', async (tx) => {
      if (!(await this.tags.existing(workspaceId, tx, [tagId])).size) throw EmailErrors.notFound('tag', tagId);
      return (await this.repository.addTags(workspaceId, tx, id, [tagId])).length ? { tagId, delta: 1 } : false;
    });
  }

  removeTag(workspaceId: WorkspaceId, id: string, tagId: string): Promise<SubscriberDto> {
    return this.changeMembership(workspaceId, id, 'tags', async (tx) => {
      if (!(await this.tags.existing(workspaceId, tx, [tagId])).size) throw EmailErrors.notFound('tag', tagId);
      return (await this.repository.removeTag(workspaceId, tx, id, tagId)) ? { tagId, delta: -1 } : false;
    });
  }

  addSequence(workspaceId: WorkspaceId, id: string, sequenceId: string): Promise<SubscriberDto> {
    return this.changeMembership(workspaceId, id, 'sequence_ids', async (tx, now) => {
      if (!(await this.repository.existingSequences(workspaceId, tx, [sequenceId])).size) throw EmailErrors.notFound('sequence', sequenceId);
      return (await this.repository.enroll(workspaceId, tx, id, [sequenceId], now)) > 0;
    });
  }

  removeSequence(workspaceId: WorkspaceId, id: string, sequenceId: string): Promise<SubscriberDto> {
    return this.changeMembership(workspaceId, id, 'sequence_ids', async (tx, now) => {
      if (!(await this.repository.existingSequences(workspaceId, tx, [sequenceId])).size) throw EmailErrors.notFound('sequence', sequenceId);
      return this.repository.unenroll(workspaceId, tx, id, sequenceId, now);
    });
  }

  /**
   * Applies one idempotent membership change; an unchanged subscriber is returned as it is. `change`
   * says whether anything changed, and for tags which counter moves (last, with the final read, right before commit).
   */
  private changeMembership(
    workspaceId: WorkspaceId,
    id: string,
    field: 'tags' | 'sequence_ids',
    change: (tx: SqlTransaction, now: Date) => Promise<boolean | { tagId: string; delta: 1 | -1 }>,
  ): Promise<SubscriberDto> {
    return this.repository.transaction(async (tx) => {
      const now = this.clock.now();
      await this.requireSubscriber(workspaceId, tx, id);
      const changed = await change(tx, now);
      if (changed) {
        await this.repository.touch(workspaceId, tx, id, now);
        await this.outbox.record(workspaceId, tx, 'subscriber.updated', { subscriber: { id }, changed_fields: [field] });
      }
      if (typeof changed === 'object') await this.repository.bumpTagCounts(workspaceId, tx, [changed.tagId], changed.delta);
      return (await this.repository.view(workspaceId, id, tx))!;
    });
  }

  /**
   * The filled-in profile fields of an upsert or update, validated and normalized; blanks are left out. Custom field
   * values are checked against definitions held until `tx` ends, so a field's type cannot change under the write.
   */
  private async profileChanges(
    workspaceId: WorkspaceId,
    tx: SqlTransaction,
    input: { name?: string | null; country?: string | null; subscribed_on?: string | null; custom_fields?: Record<string, unknown> | null },
  ): Promise<Omit<SubscriberChanges, 'email' | 'status'>> {
    const changes: Omit<SubscriberChanges, 'email' | 'status'> = {};
    if (!isBlank(input.name)) changes.name = input.name!.trim();
    if (!isBlank(input.country)) changes.country = toCountryCode(input.country!);
    if (!isBlank(input.subscribed_on)) changes.subscribed_at = parseCalendarDate(input.subscribed_on!.trim(), 'subscribed_on');
    if (input.custom_fields && Object.keys(input.custom_fields).length) {
      const definitions = await this.customFields.definitions(workspaceId, tx, Object.keys(input.custom_fields));
      const values = normalizeCustomFields(input.custom_fields, definitions);
      if (Object.keys(values).length) changes.custom_fields = values;
    }
    return changes;
  }

  private async resolveTags(workspaceId: WorkspaceId, tx: SqlTransaction, existingIds: string[], newNames: string[], now: Date): Promise<string[]> {
    const found = await this.tags.existing(workspaceId, tx, existingIds);
    const missing = existingIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw EmailErrors.invalid('unknown_tag', `Tag "${existingIds[missing]}" does not exist.`, `existing_tag_ids[${missing}]`);
    const created = await this.tags.findOrCreateByNames(workspaceId, tx, newNames, () => this.ids.newId('tag'), now);
    return [...new Set([...existingIds, ...created])];
  }

  private async requireSequences(workspaceId: WorkspaceId, tx: SqlTransaction, ids: string[], field: string): Promise<void> {
    const found = await this.repository.existingSequences(workspaceId, tx, ids);
    const missing = ids.findIndex((id) => !found.has(id));
    if (missing >= 0) throw EmailErrors.invalid('unknown_sequence', `Sequence "${ids[missing]}" does not exist.`, `${field}[${missing}]`);
  }

  private async membershipChanges(
    workspaceId: WorkspaceId,
    tx: SqlTransaction,
    id: string,
    tagIds: string[],
    sequenceIds: string[],
    changedFields: string[],
    now: Date,
  ): Promise<string[]> {
    const addedTags = await this.repository.addTags(workspaceId, tx, id, tagIds);
    if (addedTags.length) changedFields.push('tags');
    if (await this.repository.enroll(workspaceId, tx, id, sequenceIds, now)) changedFields.push('sequence_ids');
    return addedTags;
  }

  private async requireSubscriber(workspaceId: WorkspaceId, tx: SqlTransaction, id: string) {
    const current = await this.repository.lock(workspaceId, tx, id);
    if (!current) throw EmailErrors.notFound('subscriber', id);
    return current;
  }

  private requireConsentToActivate(previous: SubscriberStatusName, next: SubscriberStatusName | undefined, consent?: ConsentEvidenceDto): void {
    if (activationNeedsConsent(previous, next) && !consent) {
      throw EmailErrors.invalid('consent_evidence_required', `Making a ${previous} subscriber Active requires consent_evidence.`, 'consent_evidence');
    }
  }

  private checkConsentTime(consent?: ConsentEvidenceDto): void {
    if (consent && new Date(consent.collected_at).getTime() > this.clock.now().getTime()) {
      throw EmailErrors.invalid('consent_collected_in_future', 'consent_evidence.collected_at is later than server time.', 'consent_evidence.collected_at');
    }
  }

  private async recordConsent(workspaceId: WorkspaceId, tx: SqlTransaction, subscriberId: string, consent: ConsentEvidenceDto, now: Date): Promise<void> {
    await this.repository.recordConsent(
      workspaceId,
      tx,
      subscriberId,
      {
        id: this.ids.newId('cns'),
        lawful_basis: consent.lawful_basis,
        consent_text_version: consent.consent_text_version ?? null,
        collected_at: new Date(consent.collected_at),
        source_url: consent.source_url ?? null,
        evidence_reference: consent.evidence_reference,
        technical_evidence_hash: consent.technical_evidence_hash ?? null,
      },
      now,
    );
  }

  private async recordStatusChange(workspaceId: WorkspaceId, tx: SqlTransaction, id: string, previous: string, status: string): Promise<void> {
    await this.outbox.record(workspaceId, tx, 'subscriber.status_changed', { subscriber: { id }, previous_status: previous, status });
  }
}
