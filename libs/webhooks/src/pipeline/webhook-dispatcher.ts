import { Logger } from '@nestjs/common';
import type { WebhookSettings } from '@shared/config';
import { retryDelayMs } from '../retry-schedule';
import type { DestinationRules } from '../destination';
import { SafeWebhookClient, SafeWebhookClientOptions } from '../safe-client';
import { WebhookSigner } from '../signing';
import type { SigningSecrets } from './signing-secrets';
import { webhookBody } from './webhook-body';
import { AttemptOutcome, ClaimedDelivery, WebhookStore } from './webhook-store';

/** Injection token of extra client options (tests: a resolver, a local certificate authority). */
export const WEBHOOK_CLIENT_OPTIONS = Symbol('WEBHOOK_CLIENT_OPTIONS');
export type WebhookClientOptions = Pick<SafeWebhookClientOptions, 'resolve' | 'ca'>;

const FLUSH_INTERVAL_MS = 50;
const PRUNE_INTERVAL_MS = 10 * 60_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** One subscription's attempts: at most `limit` at once, so a slow receiver only ever holds its own slots. */
class SubscriptionLane {
  readonly waiting: ClaimedDelivery[] = [];
  active = 0;

  constructor(
    private readonly limit: number,
    private readonly attempt: (delivery: ClaimedDelivery) => Promise<void>,
    private readonly freed: () => void,
  ) {}

  get load(): number {
    return this.active + this.waiting.length;
  }

  push(delivery: ClaimedDelivery): void {
    this.waiting.push(delivery);
    this.pump();
  }

  private pump(): void {
    while (this.active < this.limit && this.waiting.length) {
      const next = this.waiting.shift()!;
      this.active++;
      void this.attempt(next).finally(() => {
        this.active--;
        this.pump();
        this.freed();
      });
    }
  }
}

/**
 * A service's webhook worker loops (email's webhook-worker, forms-worker): fan published outbox events out into deliveries, claim due deliveries and attempt them in
 * per-subscription lanes, record the outcomes in batches, and prune old events. Delivery is at least once: an attempt
 * whose outcome was not recorded (the worker died) is made again, with the same `webhook-id`, once its lease ends.
 */
export class WebhookDispatcher {
  private readonly logger = new Logger(WebhookDispatcher.name);
  private readonly client: SafeWebhookClient;
  private readonly lanes = new Map<string, SubscriptionLane>();
  private readonly signers = new Map<string, { sealed: string; signer: WebhookSigner }>();
  private outcomes: AttemptOutcome[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private wakeClaim: (() => void) | undefined;

  constructor(
    private readonly store: WebhookStore,
    private readonly secrets: Pick<SigningSecrets, 'open'>,
    private readonly settings: WebhookSettings,
    rules: DestinationRules,
    clientOptions: WebhookClientOptions,
  ) {
    this.client = new SafeWebhookClient({ ...rules, timeoutMs: this.settings.timeoutMs, ...clientOptions });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = [this.fanOutLoop(), this.claimLoop(), this.flushLoop(), this.pruneLoop()];
  }

  /** Stops claiming, lets attempts in flight finish and records them. Claimed attempts not started wait for their lease. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wakeClaim?.();
    await Promise.all(this.loops);
    for (const lane of this.lanes.values()) lane.waiting.length = 0;
    while ([...this.lanes.values()].some((lane) => lane.active > 0)) await sleep(20);
    await this.flush();
    this.client.close();
  }

  /** A claimed attempt waits at most two rounds of its lane, then takes at most the timeout: three timeouts and a margin. */
  private get leaseMs(): number {
    return 3 * this.settings.timeoutMs + 5000;
  }

  private async fanOutLoop(): Promise<void> {
    while (this.running) {
      const dispatched = await this.store.dispatch(this.settings.batchSize).catch((error: unknown) => this.failed('fan-out', error));
      if (dispatched > 0) this.wakeClaim?.();
      else await sleep(this.settings.pollIntervalMs);
    }
  }

  private async claimLoop(): Promise<void> {
    const perSubscription = this.settings.concurrencyPerSubscription;
    const maxQueued = 2 * this.settings.batchSize;
    while (this.running) {
      const queued = [...this.lanes.values()].reduce((sum, lane) => sum + lane.load, 0);
      const busy = [...this.lanes.entries()].filter(([, lane]) => lane.load >= perSubscription).map(([id]) => id);
      const room = Math.min(this.settings.batchSize, maxQueued - queued);
      const claimed =
        room > 0 ? await this.store.claim(room, perSubscription, busy, this.leaseMs).catch((error: unknown) => this.failed('claim', error, [])) : [];
      for (const delivery of claimed) this.lane(delivery.subscription_id).push(delivery);
      this.forgetIdleLanes();
      if (!claimed.length) await this.waitForWork();
    }
  }

  private waitForWork(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.settings.pollIntervalMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeClaim = done;
    });
  }

  private lane(subscriptionId: string): SubscriptionLane {
    let lane = this.lanes.get(subscriptionId);
    if (!lane) {
      lane = new SubscriptionLane(
        this.settings.concurrencyPerSubscription,
        (delivery) => this.attempt(delivery),
        () => this.wakeClaim?.(),
      );
      this.lanes.set(subscriptionId, lane);
    }
    return lane;
  }

  private forgetIdleLanes(): void {
    for (const [id, lane] of this.lanes) if (lane.load === 0) this.lanes.delete(id);
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
    const at = new Date();
    let result: { ok: boolean; status: number | null; error: string | null };
    try {
      const body = webhookBody(delivery);
      result = await this.client.post(delivery.url, { ...this.signer(delivery).headers(delivery.id, at, body) }, body);
    } catch (error) {
      this.logger.error({ deliveryId: delivery.id, error: (error as Error).message }, 'webhook attempt could not be made');
      result = { ok: false, status: null, error: 'The delivery could not be signed or sent; it will be retried.' };
    }
    const delay = result.ok ? null : retryDelayMs(delivery.attempts + 1, this.settings.retryUnitMs);
    this.outcomes.push({ id: delivery.id, ...result, at, retryAt: delay === null ? null : new Date(at.getTime() + delay) });
  }

  /** The subscription's signer, opened from its sealed secret once and again only after a rotation. */
  private signer(delivery: ClaimedDelivery): WebhookSigner {
    const cached = this.signers.get(delivery.subscription_id);
    if (cached?.sealed === delivery.signing_secret) return cached.signer;
    const signer = new WebhookSigner(this.secrets.open(delivery.subscription_id, delivery.signing_secret));
    this.signers.set(delivery.subscription_id, { sealed: delivery.signing_secret, signer });
    return signer;
  }

  private async flushLoop(): Promise<void> {
    while (this.running) {
      await sleep(FLUSH_INTERVAL_MS);
      await this.flush();
    }
  }

  private async flush(): Promise<void> {
    if (!this.outcomes.length) return;
    const batch = this.outcomes;
    this.outcomes = [];
    try {
      await this.store.record(batch, new Date(Date.now() - this.settings.disableAfterMs));
    } catch (error) {
      this.outcomes.unshift(...batch);
      this.failed('recording outcomes', error);
    }
  }

  private async pruneLoop(): Promise<void> {
    let next = 0;
    while (this.running) {
      if (Date.now() >= next) {
        next = Date.now() + PRUNE_INTERVAL_MS;
        const pruned = await this.store.prune(this.settings.retentionHours).catch((error: unknown) => this.failed('prune', error));
        if (pruned) this.logger.log({ pruned }, 'published outbox events pruned');
      }
      await sleep(Math.min(1000, this.settings.pollIntervalMs * 5));
    }
  }

  private failed<T = number>(what: string, error: unknown, fallback: T = 0 as T): T {
    this.logger.warn({ error: (error as Error).message }, `webhooks: ${what} failed; retrying`);
    return fallback;
  }
}
