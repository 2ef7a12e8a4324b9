// The delivery worker: claims due deliveries (SKIP LOCKED, so workers never share an attempt), sends, records.
import type { WebhookDeliveryConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { newId } from '../../shared/ids.js';
import * as repo from './delivery-repo.js';
import { presentEvent } from './events.js';
import { endpointSecret, type WebhookSender } from './sender.js';

/** Deliveries a worker has under way at once, and of them at most this many to one endpoint (a slow one waits). */
const IN_FLIGHT = 20;
const PER_ENDPOINT = 5;
// A claim outlives the slowest possible attempt, so a live worker never loses its claim mid-send.
const LEASE_MARGIN_MS = 5000;

export function retryPolicy(config: WebhookDeliveryConfig): repo.RetryPolicy {
  return {
    scheduleMs: config.retryScheduleMs,
    jitter: config.retryJitter,
    disableAfterFailures: config.disableAfterFailures,
    disableAfterMs: config.disableAfterMs,
  };
}

interface Logger {
  error(obj: object, msg: string): void;
}

export class WebhookWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** Deliveries under way: each sends and records on its own, so a slow receiver holds only its own slots. */
  private readonly underWay = new Map<string, { endpointId: string; done: Promise<void> }>();

  constructor(
    private readonly db: Db,
    private readonly sender: WebhookSender,
    private readonly config: WebhookDeliveryConfig,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops claiming; attempts already under way finish and are recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }

  /** Claims what is due, fairly, and delivers it all before returning; how many were claimed (tests, one-off runs). */
  async deliverDue(): Promise<number> {
    const claimed = await this.claim(IN_FLIGHT, []);
    await Promise.all(claimed.map((d) => this.deliver(d)));
    return claimed.length;
  }

  private claim(limit: number, busy: string[]): Promise<repo.ClaimedDelivery[]> {
    return repo.claimDue(this.db, limit, this.config.timeoutMs + LEASE_MARGIN_MS, { perEndpoint: PER_ENDPOINT, busy });
  }

  /** Claims while slots are free; each delivery frees its slot, and wakes the loop, when it is recorded. */
  private async run(): Promise<void> {
    while (this.running) {
      const free = IN_FLIGHT - this.underWay.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const batch = await this.claim(free, this.busyEndpoints());
          for (const d of batch) this.begin(d);
          claimed = batch.length;
        } catch (err) {
          this.log.error({ err }, 'webhook delivery round failed');
        }
      }
      // Again at once while work turns up and slots are free; else until the poll interval or a freed slot.
      if (this.running && (claimed === 0 || this.underWay.size >= IN_FLIGHT)) await this.pause(this.config.pollIntervalMs);
    }
    await Promise.all([...this.underWay.values()].map((u) => u.done));
  }

  private begin(d: repo.ClaimedDelivery): void {
    const done = this.deliver(d)
      .catch((err) => this.log.error({ err, delivery_id: d.id }, 'webhook delivery failed'))
      .finally(() => {
        this.underWay.delete(d.id);
        this.wake?.();
      });
    this.underWay.set(d.id, { endpointId: d.endpoint_id, done });
  }

  /** Endpoints with PER_ENDPOINT deliveries under way here: the next claim leaves them out. */
  private busyEndpoints(): string[] {
    const count = new Map<string, number>();
    for (const { endpointId } of this.underWay.values()) count.set(endpointId, (count.get(endpointId) ?? 0) + 1);
    return [...count].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async deliver(d: repo.ClaimedDelivery): Promise<void> {
    const event = presentEvent({
      id: d.event_id,
      venue_id: d.event_venue_id,
      type: d.event_type,
      livemode: d.event_livemode,
      data: d.event_data,
      request_id: d.event_request_id,
      idempotency_key: d.event_idempotency_key,
      created_at: d.event_created_at,
    });
    const secret = endpointSecret({ chain_id: d.chain_id, venue_id: d.venue_id, id: d.endpoint_id, secret: d.secret, secret_key_id: d.secret_key_id });
    const result = await this.sender.send(d.url, secret, { id: d.event_id, timestamp: new Date(), body: JSON.stringify(event) });
    if (result.secretUnopened) {
      // Our configuration, not the endpoint: no attempt is used up and the endpoint's failure streak does not grow,
      // so a process started with the wrong key cannot disable endpoints; a process with the right key delivers it.
      this.log.error(
        { chain_id: d.chain_id, venue_id: d.venue_id, endpoint_id: d.endpoint_id, delivery_id: d.id, reason: result.error },
        'webhook delivery not sent: SECRET_ENCRYPTION_KEY of this process cannot open the endpoint secret (configuration problem); retried later',
      );
      await repo.postponeUnsent(this.db, d.chain_id, d.id, d.attempts, this.config.retryScheduleMs[0] ?? this.config.pollIntervalMs);
      return;
    }
    await this.db.transaction().execute((trx) =>
      repo.recordOutcome(
        trx,
        {
          chainId: d.chain_id,
          venueId: d.venue_id,
          deliveryId: d.id,
          endpointId: d.endpoint_id,
          eventId: d.event_id,
          attempt: d.attempts,
          attemptId: newId(),
          statusCode: result.statusCode,
          durationMs: result.durationMs,
          error: result.error,
          retryAfterMs: result.retryAfterMs,
          gone: result.statusCode === 410,
          final: false,
        },
        retryPolicy(this.config),
        true,
      ),
    );
  }
}
