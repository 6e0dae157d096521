import { Inject, Injectable } from '@nestjs/common';
import { Broadcast, DeliveryConnection, Prisma } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { parseAudienceDefinition } from '@email/audience-engine';
import { connectionsGuideUrl, DeliveryConnectionRepository, DeliveryConnectionStateService } from '@email/delivery';
import { Outbox } from '@email/events';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import { CursorCodec, KeysetPage, keysetList, Page } from '@shared/pagination';
import { BroadcastMessages } from '../core/broadcast-messages';
import { BroadcastRecipients } from '../core/broadcast-recipients';
import { BroadcastDto, BroadcastSummaryDto, BroadcastUpdateRequestDto, BroadcastUpsertRequestDto } from './broadcast.dto';
import { recordStateChange } from './broadcast-events';
import { BroadcastEngagement } from './broadcast-engagement';
import { toBroadcastDto, toBroadcastSummary } from './broadcast-mapping';
import { BroadcastContent, BroadcastRepository } from './broadcast.repository';

type WriteInput = BroadcastUpdateRequestDto;

const PLAIN_FIELDS = [
  'subject',
  'preview_text',
  'reply_to_email',
  'track_opens',
  'track_clicks',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const satisfies ReadonlyArray<keyof WriteInput & keyof BroadcastContent>;
const WRITE_FIELDS = [...PLAIN_FIELDS, 'body_document', 'connection_id', 'audience_definition'] as const;
/** Concurrent edits of one draft: each retries on the version it lost to, a few times. */
const UPDATE_ATTEMPTS = 3;

/** Broadcast drafts and their schedule: list, create, read, change, delete, schedule and unschedule. */
@Injectable()
export class BroadcastService {
  constructor(
    private readonly broadcasts: BroadcastRepository,
    private readonly connections: DeliveryConnectionRepository,
    private readonly connectionState: DeliveryConnectionStateService,
    private readonly recipients: BroadcastRecipients,
    private readonly messages: BroadcastMessages,
    private readonly engagement: BroadcastEngagement,
    private readonly outbox: Outbox,
    private readonly ids: IdGenerator,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  list(workspaceId: WorkspaceId, query: { limit?: string; starting_after?: string; search?: string }): Promise<Page<BroadcastSummaryDto>> {
    const search = query.search?.trim() || undefined;
    const fetch = async (page: KeysetPage) => this.engagement.withCounts(await this.broadcasts.list(workspaceId, page, search));
    return keysetList(this.cursors, `${workspaceId}:broadcasts`, query, fetch, toBroadcastSummary);
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<BroadcastDto> {
    return this.present(workspaceId, await this.find(workspaceId, id));
  }

  /**
   * Refused while the workspace has no enabled connection (409 with the setup prerequisite). Without `connection_id`
   * the draft takes the workspace's connection when it has exactly one enabled.
   */
  async create(workspaceId: WorkspaceId, input: BroadcastUpsertRequestDto): Promise<BroadcastDto> {
    await this.requireSendingSetup(workspaceId);
    const content = await this.contentOf(workspaceId, input, null);
    if (input.connection_id === undefined) content.connection_id = (await this.onlyEnabledConnection(workspaceId))?.id ?? null;
    const created = await this.broadcasts.create(workspaceId, this.ids.newId('brd'), { ...content, subject: input.subject, body: content.body! });
    return this.present(workspaceId, created);
  }

  /** Only a draft changes; every change moves its content_version on, so an earlier preflight's proof no longer sends it. */
  async update(workspaceId: WorkspaceId, id: string, input: WriteInput): Promise<BroadcastDto> {
    if (WRITE_FIELDS.every((field) => input[field] === undefined)) {
      throw EmailErrors.invalid('empty_update', `Send at least one of ${WRITE_FIELDS.join(', ')}.`, 'body');
    }
    for (let attempt = 1; ; attempt++) {
      const current = await this.find(workspaceId, id);
      if (current.status !== 'draft') throw notEditable(current);
      const content = await this.contentOf(workspaceId, input, current);
      const updated = await this.broadcasts.updateDraft(workspaceId, id, current.content_version, content);
      if (updated) return this.present(workspaceId, updated);
      if (attempt === UPDATE_ATTEMPTS) throw notEditable(await this.find(workspaceId, id));
    }
  }

  async delete(workspaceId: WorkspaceId, id: string): Promise<void> {
    if (await this.broadcasts.delete(workspaceId, id)) return;
    const broadcast = await this.find(workspaceId, id);
    throw EmailErrors.fail('broadcast_not_deletable', `The broadcast is ${broadcast.status}; it started sending, so it cannot be deleted.`);
  }

  /**
   * Draft → scheduled, or a new time for a scheduled one; the time must be in the future and the broadcast must have an
   * enabled connection (the full checks run when it starts).
   */
  async schedule(workspaceId: WorkspaceId, id: string, scheduledAt: string): Promise<BroadcastDto> {
    const at = new Date(scheduledAt);
    if (at.getTime() <= this.clock.now().getTime()) {
      throw EmailErrors.invalid('scheduled_at_not_in_future', 'scheduled_at must be later than now.', 'scheduled_at');
    }
    const current = await this.find(workspaceId, id);
    if (current.status !== 'draft' && current.status !== 'scheduled') throw notSchedulable(current);
    const unavailable = () =>
      EmailErrors.fail(
        'broadcast_connection_unavailable',
        'The broadcast has no enabled email delivery connection, so it could not start at that time. Set connection_id to an enabled connection first.',
      );
    const connectionId = current.connection_id;
    if (!connectionId || !(await this.connections.findEnabled(workspaceId, connectionId))) throw unavailable();
    const scheduled = await this.broadcasts.transaction(async (tx) => {
      // Held until commit: the connection cannot be changed or deleted under a schedule being made.
      if (!(await this.connections.holdForUse(tx, workspaceId, connectionId))) throw unavailable();
      const changed = await this.broadcasts.schedule(tx, workspaceId, id, at);
      if (changed) await recordStateChange(this.outbox, tx, workspaceId, 'scheduled', changed);
      return changed;
    });
    if (scheduled) return this.present(workspaceId, scheduled);
    throw notSchedulable(await this.find(workspaceId, id));
  }

  /** Scheduled → draft. */
  async unschedule(workspaceId: WorkspaceId, id: string): Promise<BroadcastDto> {
    const draft = await this.broadcasts.transaction(async (tx) => {
      const changed = await this.broadcasts.unschedule(tx, workspaceId, id);
      if (changed) await recordStateChange(this.outbox, tx, workspaceId, 'unscheduled', changed);
      return changed;
    });
    if (draft) return this.present(workspaceId, draft);
    const broadcast = await this.find(workspaceId, id);
    throw EmailErrors.fail('broadcast_not_scheduled', `The broadcast is ${broadcast.status}, not scheduled.`);
  }

  async find(workspaceId: WorkspaceId, id: string): Promise<Broadcast> {
    const broadcast = await this.broadcasts.find(workspaceId, id);
    if (!broadcast) throw EmailErrors.notFound('broadcast', id);
    return broadcast;
  }

  /** The record with its connection's sender and its engagement counts. */
  async present(workspaceId: WorkspaceId, broadcast: Broadcast): Promise<BroadcastDto> {
    const [connection, [counted]] = await Promise.all([
      broadcast.connection_id ? this.connections.find(workspaceId, broadcast.connection_id) : null,
      this.engagement.withCounts([broadcast]),
    ]);
    return toBroadcastDto(counted, connection);
  }

  private async requireSendingSetup(workspaceId: WorkspaceId): Promise<void> {
    const state = await this.connectionState.stateOf(workspaceId);
    if (state === 'enabled') return;
    const why = state === 'missing' ? 'has no email delivery connection' : 'has only disabled email delivery connections';
    throw EmailErrors.fail('email_delivery_setup_connection_missing', `The workspace ${why}, so a broadcast cannot be created yet.`, {
      extra: {
        prerequisite: {
          resource: 'email_delivery_setup_connection',
          state,
          required_scopes: ['email_delivery_connections:write'],
          work_profile: 'email_delivery_setup',
          setup_url: connectionsGuideUrl(this.config.appBaseUrl, workspaceId),
        },
        retry: {
          safe: true,
          guidance:
            state === 'missing'
              ? 'Connect an email delivery provider (start a setup session and finish it in the browser), then send the same request again.'
              : 'Enable an email delivery connection, then send the same request again.',
        },
      },
    });
  }

  /**
   * The columns a write sets, checked: the connection is an enabled one of the workspace, the audience definition
   * compiles, and the document renders (its HTML becomes `body`). `current` is the draft being changed.
   */
  private async contentOf(workspaceId: WorkspaceId, input: WriteInput, current: Broadcast | null): Promise<BroadcastContent> {
    const content: BroadcastContent = {};
    for (const field of PLAIN_FIELDS) if (input[field] !== undefined) Object.assign(content, { [field]: input[field] });
    if (input.connection_id !== undefined)
      content.connection_id = input.connection_id === null ? null : (await this.enabledConnection(workspaceId, input.connection_id)).id;
    if (input.audience_definition === null) content.audience_definition = Prisma.DbNull;
    else if (input.audience_definition !== undefined) {
      const definition = parseAudienceDefinition(input.audience_definition, 'audience_definition');
      await this.recipients.compile(workspaceId, definition);
      content.audience_definition = definition as unknown as Prisma.InputJsonObject;
    }
    if (input.body_document !== undefined || input.subject !== undefined || input.preview_text !== undefined) {
      content.body = await this.messages.renderBody({
        subject: input.subject ?? current?.subject ?? '',
        preview_text: input.preview_text !== undefined ? input.preview_text : (current?.preview_text ?? null),
        body_document: (input.body_document !== undefined ? input.body_document : current?.body_document) as Broadcast['body_document'],
      });
      if (input.body_document !== undefined) content.body_document = input.body_document as Prisma.InputJsonValue;
    }
    return content;
  }

  private async enabledConnection(workspaceId: WorkspaceId, id: string): Promise<DeliveryConnection> {
    const connection = await this.connections.find(workspaceId, id);
    if (!connection) {
      throw EmailErrors.invalid(
        'unknown_email_delivery_connection',
        `connection_id "${id}" is not an email delivery connection of this workspace.`,
        'connection_id',
      );
    }
    if (!connection.enabled) {
      throw EmailErrors.invalid('disabled_email_delivery_connection', `The email delivery connection "${connection.name}" is disabled.`, 'connection_id');
    }
    return connection;
  }

  private async onlyEnabledConnection(workspaceId: WorkspaceId): Promise<DeliveryConnection | null> {
    const enabled = await this.connections.listEnabled(workspaceId, { limit: 1 });
    return enabled.length === 1 ? enabled[0] : null;
  }
}

const notEditable = (broadcast: Broadcast) =>
  EmailErrors.fail(
    'broadcast_not_editable',
    broadcast.status === 'scheduled'
      ? 'The broadcast is scheduled: unschedule it, change it, then schedule it again.'
      : `The broadcast is ${broadcast.status}; only a draft can be changed.`,
  );

const notSchedulable = (broadcast: Broadcast) =>
  EmailErrors.fail('broadcast_not_schedulable', `The broadcast is ${broadcast.status}; only a draft or scheduled broadcast can be scheduled.`);
