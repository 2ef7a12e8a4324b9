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
// A claim outlives the slowest possible attempt, so a live worker never loses its claim mid-send.
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
    const claimed = await updates.claimDue(this.db, BATCH, this.config.timeoutMs + LEASE_MARGIN_MS);
    await Promise.all(claimed.map((u) => this.send(u).catch((err) => this.log.error({ err, wallet_update_id: u.id }, 'wallet update failed; retried after its lease'))));
    return claimed.length;
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
    const outcome = u.channel === 'apple' ? await this.push(u) : await this.patch(u);
    if (outcome.kind === 'sent') return updates.remove(this.db, u.chain_id, u.id);
    if (outcome.kind === 'unregister') {
      return this.db.transaction().execute(async (trx) => {
        if (u.channel === 'apple') await updates.unregisterToken(trx, u);
        await updates.remove(trx, u.chain_id, u.id);
      });
    }
    const schedule = this.config.retryScheduleMs;
    if (outcome.kind === 'give_up' || u.attempts > schedule.length) return updates.markFailed(this.db, u.chain_id, u.id, outcome.error);
    const delay = schedule[u.attempts - 1]!;
    return updates.retryLater(this.db, u.chain_id, u.id, Math.round(delay * (1 + this.config.retryJitter * (Math.random() * 2 - 1))), outcome.error);
  }

  private async push(u: updates.ClaimedUpdate): Promise<PushOutcome> {
    if (!this.senders.apns) return { kind: 'retry', error: 'Apple Wallet is not configured on this worker' };
    return this.senders.apns.push(u.push_token!);
  }

  private async patch(u: updates.ClaimedUpdate): Promise<PushOutcome> {
    const google = this.senders.google;
    if (!google?.configured) return { kind: 'retry', error: 'Google Wallet is not configured on this worker' };
    const member = await repo.memberOfPass(this.db, u.member_id);
    // Erased since: nothing to send (erasure forgets the object too).
    if (!member || member.chain_id !== u.chain_id) return { kind: 'unregister', error: 'member erased' };
    const face = await cardFace(this.db, await memberPlace(this.db, u.chain_id, member.home_venue_id, this.clock.now()), u.member_id);
    try {
      return judgePatch(await google.patchObject(googleCard(face, this.senders.publicBaseUrl)));
    } catch (err) {
      return { kind: 'retry', error: `Google Wallet unreachable: ${(err as Error).message}` };
    }
  }
}
