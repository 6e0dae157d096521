import type { SubscriberStatus } from '@email/data-access';
import type { SequenceOperator, TagOperator } from '@email/audience-engine';
import type { WorkspaceId } from '@shared/core';
import type { KeysetPage } from '@shared/pagination';
import type { SqlTransaction } from '../common/sql-transaction';
import type { SubscriberDto } from './subscriber.dto';

type Tx = SqlTransaction;

export interface SubscriberFilter {
  search?: string;
  email?: string;
  status?: SubscriberStatus;
  /** Only subscribers subscribed before this instant with no open since (the caller's clock decides "now"). */
  coldBefore?: Date;
  tagIds?: string[];
  tagOperator?: TagOperator;
  sequenceIds?: string[];
  sequenceOperator?: SequenceOperator;
}

export interface SubscriberChanges {
  email?: string;
  name?: string;
  status?: SubscriberStatus;
  country?: string;
  subscribed_at?: Date;
  custom_fields?: Record<string, unknown>;
}

/** Consent evidence to store with a subscriber write. */
export interface NewConsentRecord {
  id: string;
  lawful_basis: string;
  consent_text_version?: string | null;
  collected_at: Date;
  source_url?: string | null;
  evidence_reference: string;
  technical_evidence_hash?: string | null;
}

/** The stored fields a write compares against, read under a row lock. */
export interface LockedSubscriber {
  id: string;
  email: string;
  name: string;
  status: SubscriberStatus;
  country: string | null;
  subscribed_at: Date;
  custom_fields: Record<string, unknown>;
}

/** A subscriber to insert (see insertOrLock): the fields a locked read returns. */
export type NewSubscriber = LockedSubscriber;

/** One page as JSON text, plus what pagination needs: how many rows matched (limit + 1 at most) and the last kept row. */
export interface SubscriberPageJson {
  data: string;
  fetched: number;
  last_created_at: string | null;
  last_id: string | null;
}

/**
 * The storage SubscriberService works through: SubscriberRepository in the app, an in-memory fake in unit specs
 * (testing/in-memory-audience.fixture.ts). An abstract class so Nest can inject it by type. Each method is scoped
 * to the workspace it is given; see SubscriberRepository for what each one guarantees.
 */
export abstract class SubscriberStore {
  abstract transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  abstract page(workspaceId: WorkspaceId, filter: SubscriberFilter, page: KeysetPage): Promise<SubscriberPageJson>;
  abstract view(workspaceId: WorkspaceId, id: string, tx?: Tx): Promise<SubscriberDto | undefined>;
  abstract insertOrLock(workspaceId: WorkspaceId, tx: Tx, row: NewSubscriber, now: Date): Promise<{ created: boolean } & LockedSubscriber>;
  abstract lock(workspaceId: WorkspaceId, tx: Tx, id: string): Promise<LockedSubscriber | undefined>;
  abstract update(workspaceId: WorkspaceId, tx: Tx, id: string, changes: SubscriberChanges, now: Date): Promise<void>;
  abstract touch(workspaceId: WorkspaceId, tx: Tx, id: string, now: Date): Promise<void>;
  abstract addTags(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, tagIds: string[]): Promise<string[]>;
  abstract removeTag(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, tagId: string): Promise<boolean>;
  abstract bumpTagCounts(workspaceId: WorkspaceId, tx: Tx, tagIds: string[], delta: 1 | -1): Promise<void>;
  abstract enroll(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, sequenceIds: string[], now: Date): Promise<number>;
  abstract unenroll(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, sequenceId: string, now: Date): Promise<boolean>;
  abstract existingSequences(workspaceId: WorkspaceId, tx: Tx, ids: string[]): Promise<Set<string>>;
  abstract recordConsent(workspaceId: WorkspaceId, tx: Tx, subscriberId: string, consent: NewConsentRecord, now: Date): Promise<void>;
  abstract delete(workspaceId: WorkspaceId, id: string): Promise<boolean>;
}
