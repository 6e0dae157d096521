import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { trustedWorkspaceId, WorkspaceId } from '@shared/core';
import { REDIS_CLIENT } from '@shared/redis';
import { ExpiringCache } from './expiring-cache';
import { PublishedFormRow, PublishedFormsRepository } from './published-forms.repository';

/** What the public side (hosted page, submissions) needs of a live form. */
export interface PublishedForm extends Omit<PublishedFormRow, 'workspaceId'> {
  /** The workspace the form record names: the tenant of whatever a respondent sends to it. */
  workspaceId: WorkspaceId;
}

const CHANNEL = 'forms:published:invalidate';
/** Upper bound on staleness if an invalidation message is ever lost. */
const TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * An in-process cache of published snapshots keyed by public id. Publishing, closing, reopening or deleting a form
 * invalidates it here at once and on every other replica through Redis pub/sub.
 */
@Injectable()
export class PublishedForms implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('PublishedForms');
  private readonly entries = new ExpiringCache<PublishedForm | null>(TTL_MS, MAX_ENTRIES);
  private readonly publicIdByFormId = new Map<string, string>();
  private subscriber?: Redis;

  constructor(
    private readonly repository: PublishedFormsRepository,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
  ) {}

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (_channel: string, publicId: string) => this.entries.delete(publicId));
    this.subscriber.on('error', (error) => this.logger.warn(`invalidation channel: ${String(error)}`));
    await this.subscriber.subscribe(CHANNEL);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  byPublicId(publicId: string): Promise<PublishedForm | null> {
    return this.entries.get(publicId, (key) => this.load(key));
  }

  async byFormId(formId: string): Promise<PublishedForm | null> {
    let publicId = this.publicIdByFormId.get(formId);
    if (!publicId) {
      const found = await this.repository.publicIdOf(formId);
      if (!found) return null;
      publicId = found;
      if (this.publicIdByFormId.size >= MAX_ENTRIES) this.publicIdByFormId.clear();
      this.publicIdByFormId.set(formId, publicId);
    }
    return this.byPublicId(publicId);
  }

  async invalidate(publicId: string): Promise<void> {
    this.entries.delete(publicId);
    await this.redis.publish(CHANNEL, publicId).catch((error) => this.logger.warn(`invalidate ${publicId}: ${String(error)}`));
  }

  private async load(publicId: string): Promise<PublishedForm | null> {
    const form = await this.repository.byPublicId(publicId);
    if (!form) return null;
    this.publicIdByFormId.set(form.formId, publicId);
    return { ...form, workspaceId: trustedWorkspaceId(form.workspaceId) };
  }
}
