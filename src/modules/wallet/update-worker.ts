// The worker role's wallet updates (D23): what the triggers queued when a card changed goes out, a push per Apple
// device and a PATCH per Google object, on the webhooks' retry schedule and poll interval. A failed one is retried
// alone; APNs 410 or BadDeviceToken unregister the device; a Google object the guest never saved (404) is dropped.
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebhookDeliveryConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import type { ApnsClient, PushOutcome } from './apns.js';
import { cardFace, memberPlace } from './card.js';
import { googleCard, type GoogleWallet } from './google-wallet.js';
import * as repo from './repo.js';
import * as updates from './updates-repo.js';

const BATCH = 50;
// A claim outlives the slowest possible attempt (a Google update may wait for a token, then for its PATCH), so a
// live worker never loses its claim mid-send; if it does all the same, its outcome is not written (updates-repo.ts).
const LEASE_MARGIN_MS = 5000;

export interface WalletSenders {
  apns?: ApnsClient;
  google?: GoogleWallet;
  publicBaseUrl: string;
}

/** Google's answer, judged as APNs' is: 404 (never saved) is dropped like a gone device, 429 and 5xx retried. */
function judgePatch(status: number): PushOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent' };
  const error = `Google Wallet ${status}`;
  if (status === 404) return { kind: 'unregister', error };
  if (status === 429 || status >= 500 || status === 401) return { kind: 'retry', error };
  return { kind: 'give_up', error };
}

export class WalletUpdates {
  constructor(
    private readonly db: Db,
    private readonly senders: WalletSenders,
    private readonly config: WebhookDeliveryConfig,
    private readonly clock: Clock,
    private readonly log: { error(obj: object, msg: string): void },
  ) {}

  /** Claims what is due and sends it all; how many were claimed. */
  async sendDue(): Promise<number> {
    const claimed = await updates.claimDue(this.db, this.channels(), BATCH, 2 * this.config.timeoutMs + LEASE_MARGIN_MS);
    await Promise.all(claimed.map((u) => this.send(u).catch((err) => this.log.error({ err, wallet_update_id: u.id }, 'wallet update not recorded; retried after its lease'))));
    return claimed.length;
  }

  /** The channels this worker has the settings to send: the others' rows wait for a worker that has them. */
  private channels(): updates.Channel[] {
    return [...(this.senders.apns ? (['apple'] as const) : []), ...(this.senders.google?.configured ? (['google', 'google_erased'] as const) : [])];
  }

  /** Runs until stopped: at once again while work turns up, else after the poll interval. */
  start(): { stop(): Promise<void> } {
    const stopping = new AbortController();
    const loop = (async () => {
      while (!stopping.signal.aborted) {
        let claimed = 0;
        try {
          claimed = await this.sendDue();
        } catch (err) {
          this.log.error({ err }, 'wallet update round failed');
        }
        if (claimed === 0) await sleep(this.config.pollIntervalMs, undefined, { signal: stopping.signal, ref: false }).catch(() => undefined);
      }
    })();
    return {
      stop: () => {
        stopping.abort();
        return loop;
      },
    };
  }

  private async send(u: updates.ClaimedUpdate): Promise<void> {
    const outcome = await this.attempt(u).catch((err: Error): PushOutcome => ({ kind: 'retry', error: `${u.channel === 'apple' ? 'APNs' : 'Google Wallet'}: ${err.message}` }));
    if (outcome.kind === 'sent') return updates.remove(this.db, u);
    if (outcome.kind === 'unregister') {
      return this.db.transaction().execute(async (trx) => {
        if (u.channel === 'apple') await updates.unregisterToken(trx, u);
        await updates.remove(trx, u);
      });
    }
    const schedule = this.config.retryScheduleMs;
    if (outcome.kind === 'give_up' || u.attempts > schedule.length) return updates.markFailed(this.db, u, outcome.error);
    const delay = schedule[u.attempts - 1]!;
    return updates.retryLater(this.db, u, Math.round(delay * (1 + this.config.retryJitter * (Math.random() * 2 - 1))), outcome.error);
  }

  private async attempt(u: updates.ClaimedUpdate): Promise<PushOutcome> {
    if (u.channel === 'apple') return this.senders.apns!.push(u.push_token!);
    const google = this.senders.google!;
    // An erased member's object: taken out of use, their name and figures off it.
    if (u.channel === 'google_erased') return judgePatch(await google.retireObject(u.member_id));
    const member = await repo.memberOfPass(this.db, u.member_id);
    // Erased since: nothing to send (the erasure queued the object's retirement).
    if (!member || member.chain_id !== u.chain_id) return { kind: 'unregister', error: 'member erased' };
    const face = await cardFace(this.db, await memberPlace(this.db, u.chain_id, member.home_venue_id, this.clock.now()), u.member_id);
    return judgePatch(await google.patchObject(googleCard(face, this.senders.publicBaseUrl)));
  }
}
