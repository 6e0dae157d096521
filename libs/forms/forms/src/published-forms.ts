import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { FormsPrisma } from '@forms/data-access';
import type { DraftSchema } from '@forms/draft-schema';
import { REDIS_CLIENT } from '@shared/redis';
import { ExpiringCache } from './expiring-cache';

/** What the public side (hosted page, submissions) needs of a live form. */
export interface PublishedForm {
  formId: string;
  workspaceId: string;
  publicId: string;
  title: string;
  status: 'draft' | 'published' | 'closed';
  /** 0 while the form was never published (then `schema` is null). */
  version: number;
  schema: DraftSchema | null;
  plan: 'free' | 'pro' | 'business';
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
    private readonly prisma: FormsPrisma,
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
      const row = await this.prisma.form.findUnique({ where: { id: formId }, select: { public_id: true } });
      if (!row) return null;
      publicId = row.public_id;
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
    const form = await this.prisma.form.findUnique({ where: { public_id: publicId }, include: { workspace: { select: { plan: true } } } });
    if (!form) return null;
    this.publicIdByFormId.set(form.id, publicId);
    const version =
      form.published_version > 0
        ? await this.prisma.formVersion.findUnique({ where: { form_id_version: { form_id: form.id, version: form.published_version } } })
        : null;
    return {
      formId: form.id,
      workspaceId: form.workspace_id,
      publicId,
      title: form.title,
      status: form.status,
      version: form.published_version,
      schema: (version?.schema as unknown as DraftSchema) ?? null,
      plan: form.workspace.plan,
    };
  }
}
