import { Global, Inject, Injectable, Logger, Module, OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { createRedis, createRequestPathRedis } from '@shared/redis';

/** A credential was revoked, or an account's roles changed: caches holding it must forget it. */
export interface AuthChange {
  kind: 'credential' | 'owner';
  id: string;
}

/** `null`: some change may have been missed (lost message, Redis unreachable); forget everything. */
export type AuthChangeListener = (change: AuthChange | null) => void;

/** The auth channels; each service listens only to its own. */
export const AuthServices = { email: 'email', forms: 'forms' } as const;
export type AuthService = (typeof AuthServices)[keyof typeof AuthServices];

/** Quits a connection, or drops it when quitting fails. */
async function closeRedis(connection: Redis | undefined): Promise<void> {
  await connection?.quit().catch(() => connection.disconnect());
}

/**
 * The auth lib's own Redis connection, opened at first use (the admin CLI opens it only to publish). Auth keeps its
 * own because it is shared by services whose modules do not all provide the app's Redis client.
 */
@Injectable()
export class AuthRedis implements OnModuleDestroy {
  private client?: Redis;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  connection(): Redis {
    this.client ??= createRequestPathRedis(this.config, new Logger('AuthRedis'));
    return this.client;
  }

  /** A dedicated connection for pub/sub; a SUBSCRIBE sent while Redis is down waits for it instead of failing. */
  subscriberConnection(): Redis {
    return createRedis(this.config.redisUrl);
  }

  async onModuleDestroy(): Promise<void> {
    await closeRedis(this.client);
  }
}

/**
 * Tells every replica of a service that a credential was revoked or a role changed, within a second.
 *
 * A change is counted in the service's epoch key, then published with that epoch on the service's Redis pub/sub
 * channel. Listeners evict what each message names. Each replica also re-reads the epochs every `authChangeCheckMs`:
 * when one moved past the messages it received (a message was lost, the subscriber was reconnecting) or cannot be
 * read, its listeners forget everything and verify again against the database. The cost is one MGET per interval
 * per replica, not per request.
 */
@Injectable()
export class AuthChangeBus implements OnModuleDestroy {
  private readonly logger = new Logger('AuthChanges');
  private readonly listeners = new Map<AuthService, Set<AuthChangeListener>>();
  /** The epoch each service's caches are known to be consistent with; null until first read. */
  private readonly lastEpochs = new Map<AuthService, number | null>();
  private subscriber?: Redis;
  private timer?: NodeJS.Timeout;
  private checking = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: AuthRedis,
  ) {}

  private channelOf(service: AuthService): string {
    return `${this.config.queuePrefix}:auth-changes:${service}`;
  }

  private epochKeyOf(service: AuthService): string {
    return `${this.config.queuePrefix}:auth-epoch:${service}`;
  }

  /** Call after the change is committed. A failure is logged: replicas then see it at their next epoch check or TTL. */
  async publish(service: AuthService, change: AuthChange): Promise<void> {
    try {
      const epoch = await this.redis.connection().incr(this.epochKeyOf(service));
      await this.redis.connection().publish(this.channelOf(service), JSON.stringify({ ...change, epoch }));
    } catch (error) {
      this.logger.warn(`could not publish ${change.kind} change ${change.id}: ${String(error)}`);
    }
  }

  /** Starts listening (one subscriber connection per process) and calls `listener` for each change of `service`. */
  listen(service: AuthService, listener: AuthChangeListener): void {
    const first = !this.listeners.has(service);
    const set = this.listeners.get(service) ?? new Set();
    set.add(listener);
    this.listeners.set(service, set);
    if (!this.subscriber) this.startSubscriber();
    if (first) {
      this.lastEpochs.set(service, null);
      this.subscriber!.subscribe(this.channelOf(service)).catch((error) => this.logger.warn(`subscribe: ${String(error)}`));
      void this.checkEpochs();
    }
    this.timer ??= setInterval(() => void this.checkEpochs(), this.config.authChangeCheckMs).unref();
  }

  private startSubscriber(): void {
    const subscriber = this.redis.subscriberConnection();
    subscriber.on('message', (channel: string, message: string) => {
      const service = [...this.listeners.keys()].find((s) => this.channelOf(s) === channel);
      if (service) this.receive(service, message);
    });
    subscriber.on('error', (error) => this.logger.warn(`change channel: ${String(error)}`));
    this.subscriber = subscriber;
  }

  private async checkEpochs(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    const services = [...this.listeners.keys()];
    let epochs: (string | null)[];
    try {
      epochs = await this.redis.connection().mget(...services.map((s) => this.epochKeyOf(s)));
    } catch {
      for (const service of services) this.emit(service, null);
      return;
    } finally {
      this.checking = false;
    }
    services.forEach((service, i) => {
      const epoch = Number(epochs[i] ?? 0);
      if (this.lastEpochs.get(service) === epoch) return;
      // Some change arrived only as a count (or this is the first read, when the caches are still empty).
      this.lastEpochs.set(service, epoch);
      this.emit(service, null);
    });
  }

  /** Evicts what the message names; the epoch moves on only when no message was skipped since the last one. */
  private receive(service: AuthService, message: string): void {
    const change = parseChange(message);
    this.emit(service, change && { kind: change.kind, id: change.id });
    const last = this.lastEpochs.get(service);
    if (change && last !== null && last !== undefined && change.epoch === last + 1) this.lastEpochs.set(service, change.epoch);
  }

  private emit(service: AuthService, change: AuthChange | null): void {
    for (const listener of this.listeners.get(service) ?? []) listener(change);
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.subscriber?.disconnect(); // a subscriber has nothing to flush, and QUIT would wait for an unreachable Redis
  }
}

function parseChange(message: string): (AuthChange & { epoch: number }) | null {
  try {
    const parsed = JSON.parse(message) as Partial<AuthChange & { epoch: number }>;
    if ((parsed.kind === 'credential' || parsed.kind === 'owner') && typeof parsed.id === 'string' && typeof parsed.epoch === 'number') {
      return { kind: parsed.kind, id: parsed.id, epoch: parsed.epoch };
    }
  } catch {
    // fall through: an unreadable message is treated as "something changed"
  }
  return null;
}

/** One AuthChangeBus per process, shared by the credential verifier, the services that revoke, and role caches. */
@Global()
@Module({ providers: [AuthRedis, AuthChangeBus], exports: [AuthRedis, AuthChangeBus] })
export class AuthChangesModule {}
