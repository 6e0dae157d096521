import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DeliveryConnection } from '@email/data-access';
import { EmailErrors } from '@email/contracts';
import { Clock, IdGenerator, WorkspaceId } from '@shared/core';
import { TooManyRequests } from '@shared/errors';
import { CursorCodec, Page, PageQueryDto, keysetList } from '@shared/pagination';
import { countInWindow, retryAfterSeconds } from '@shared/rate-limit';
import { REDIS_CLIENT } from '@shared/redis';
import { DeliveryConnectionRepository } from '../delivery-connection.repository';
import { ConnectionProviders } from './connection-providers';
import { ConnectionUsage } from './connection-usage';
import { toConnectionDto, toSendLimitsDto } from './connection-mapping';
import { ConnectionSendLimitsDto, ConnectionSendLimitsUpdateRequestDto } from './send-limits.dto';
import { ConnectionDto, ConnectionTestResultDto, ConnectionUpdateRequestDto, ConnectionVerificationDto } from './connection.dto';
import { sendFailure, testMessage, verifyFailure } from './connection-checks';

/** Test sends per connection per window: enough to try a fix a few times, too few to use it as a sending path. */
export const TEST_SENDS_PER_WINDOW = 5;
export const TEST_SEND_WINDOW_MS = 10 * 60 * 1000;

/** The connection operations of the API. Credentials never pass through here: only setup sessions write them. */
@Injectable()
export class ConnectionService {
  constructor(
    private readonly repository: DeliveryConnectionRepository,
    private readonly providers: ConnectionProviders,
    private readonly usage: ConnectionUsage,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
  ) {}

  list(workspaceId: WorkspaceId, query: PageQueryDto): Promise<Page<ConnectionDto>> {
    return keysetList(this.cursors, `${workspaceId}:email_delivery_connections`, query, (page) => this.repository.list(workspaceId, page), toConnectionDto);
  }

  async get(workspaceId: WorkspaceId, id: string): Promise<ConnectionDto> {
    return toConnectionDto(await this.find(workspaceId, id));
  }

  async update(workspaceId: WorkspaceId, id: string, changes: ConnectionUpdateRequestDto): Promise<ConnectionDto> {
    const { name, from_email, from_name } = changes;
    if (name === undefined && from_email === undefined && from_name === undefined) {
      throw EmailErrors.invalid('empty_update', 'Send at least one of name, from_email and from_name.', 'body');
    }
    const updated = await this.repository.whileLocked(workspaceId, id, async (tx, connection) => {
      await this.refuseWhileInUse(workspaceId, connection, 'changed');
      return this.repository.update(workspaceId, id, { name, from_email, from_name }, tx);
    });
    if (!updated) throw EmailErrors.notFound('email_delivery_connection', id);
    return toConnectionDto(updated);
  }

  /** Enabling needs credentials this server can open; disabling always works. */
  async setEnabled(workspaceId: WorkspaceId, id: string, enabled: boolean): Promise<ConnectionDto> {
    if (enabled) this.providers.forConnection(await this.find(workspaceId, id));
    const updated = await this.repository.update(workspaceId, id, { enabled });
    if (!updated) throw EmailErrors.notFound('email_delivery_connection', id);
    return toConnectionDto(updated);
  }

  async verify(workspaceId: WorkspaceId, id: string): Promise<ConnectionVerificationDto> {
    const connection = await this.find(workspaceId, id);
    const result = await this.providers.forConnection(connection).verify();
    if (!result.ok) throw verifyFailure(result.kind, result.reason);
    const verifiedAt = this.clock.now();
    await this.repository.update(workspaceId, id, { verified_at: verifiedAt });
    const inspected = result.inspection === 'available';
    return {
      connection_id: id,
      verification_status: inspected ? 'verified' : 'send_test_required',
      inspection_status: result.inspection,
      message: inspected
        ? `The ${connection.provider} credentials work and the account can be inspected.`
        : `The ${connection.provider} credentials were accepted, but they may not inspect the account: send a test email to prove they can send.`,
      verified_at: verifiedAt.toISOString(),
    };
  }

  /** One real email to `to`, counted against a small per-connection window (the Idempotency-Key replays a repeat). */
  async sendTest(workspaceId: WorkspaceId, id: string, to: string): Promise<ConnectionTestResultDto> {
    const connection = await this.find(workspaceId, id);
    const provider = this.providers.forConnection(connection);
    const { used, resetMs } = await countInWindow(this.redis, `delivery-test:${workspaceId}:${id}`, TEST_SEND_WINDOW_MS, this.clock.now().getTime());
    if (used > TEST_SENDS_PER_WINDOW) throw TooManyRequests(retryAfterSeconds(resetMs));
    const outcome = await provider.send(testMessage(connection, to, this.ids.newId('msg')));
    if (outcome.kind !== 'accepted') throw sendFailure(outcome);
    return { connection_id: id, recipient: to, status: 'sent', sent_at: this.clock.now().toISOString() };
  }

  async sendLimits(workspaceId: WorkspaceId, id: string): Promise<ConnectionSendLimitsDto> {
    return toSendLimitsDto(await this.find(workspaceId, id));
  }

  /** Allowed while sends use the connection: running sends pick the new limits up within a poll interval. */
  async updateSendLimits(workspaceId: WorkspaceId, id: string, changes: ConnectionSendLimitsUpdateRequestDto): Promise<ConnectionSendLimitsDto> {
    const { send_rate_per_second, send_connections, daily_quota } = changes;
    if (send_rate_per_second === undefined && send_connections === undefined && daily_quota === undefined) {
      throw EmailErrors.invalid('empty_update', 'Send at least one of send_rate_per_second, send_connections and daily_quota.', 'body');
    }
    const updated = await this.repository.update(workspaceId, id, { send_rate_per_second, send_connections, daily_quota });
    if (!updated) throw EmailErrors.notFound('email_delivery_connection', id);
    return toSendLimitsDto(updated);
  }

  async delete(workspaceId: WorkspaceId, id: string): Promise<void> {
    const deleted = await this.repository.whileLocked(workspaceId, id, async (tx, connection) => {
      await this.refuseWhileInUse(workspaceId, connection, 'deleted');
      return this.repository.delete(workspaceId, id, tx);
    });
    if (!deleted) throw EmailErrors.notFound('email_delivery_connection', id);
  }

  /**
   * A scheduled or running send reads the connection's sender and credentials as it goes: 409 until it is done. Asked
   * under the connection's row lock, so a send or schedule starting at the same moment is either seen here or waits.
   */
  private async refuseWhileInUse(workspaceId: WorkspaceId, connection: DeliveryConnection, change: 'changed' | 'deleted'): Promise<void> {
    const uses = await this.usage.usesOf(workspaceId, connection.id);
    if (!uses.length) return;
    throw EmailErrors.fail(
      'email_delivery_connection_in_use',
      `The connection "${connection.name}" cannot be ${change} while ${uses.length === 1 ? 'a send uses' : `${uses.length} sends use`} it; wait until they finish or cancel them.`,
      { extra: { used_by: uses } },
    );
  }

  private async find(workspaceId: WorkspaceId, id: string): Promise<DeliveryConnection> {
    const connection = await this.repository.find(workspaceId, id);
    if (!connection) throw EmailErrors.notFound('email_delivery_connection', id);
    return connection;
  }
}
