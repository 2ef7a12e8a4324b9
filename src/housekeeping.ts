// Housekeeping the worker role runs now and then, each in bounded batches: Idempotency-Key answers past their 24
// hours are deleted (reads never replay them; this only keeps the table from growing), and holds past expiry are
// marked `expired` (reads judge them by the clock anyway; this makes the table say so); cashback due to expire is
// written as `expiry` ledger entries and its warnings sent (members/expiry-service.ts; reads subtract it before);
// member import uploads an API process stopped receiving (it died) are deleted after an hour; webhook signing secrets
// and point-of-sale connections' secrets left in plaintext or under an older key (written by a process not yet
// restarted) are sealed again with the first key;
// audit log entries past their retention are deleted; wallet updates given up on are deleted after 30 days; dashboard
// sign-ups past their 24 hours are deleted with the password hashes they kept.
// Every minute, birthday campaigns credit the birthdays due (flows/birthdays.ts), and members whose old spend
// left their program's level window are judged again (members/levels.ts).
import type { Db } from './db/database.js';
import { forgetExpiredAnswers } from './http/idempotency.js';
import { forgetExpiredSignUps } from './modules/accounts/service.js';
import { purgeAuditEvents } from './modules/audit/service.js';
import { runBirthdays } from './flows/birthdays.js';
import { markExpiredHolds } from './modules/holds/service.js';
import { forgetInterruptedUploads } from './modules/imports/service.js';
import { runExpiry } from './modules/members/expiry-service.js';
import { runLevelPeriods } from './modules/members/service.js';
import { forgetFailedUpdates } from './modules/wallet/service.js';
import { sealAgainWithFirstKey } from './modules/webhooks/service.js';
import { sealConnectionsAgain } from './integrations/core/service.js';
import type { Clock } from './shared/clock.js';
import type { SecretBox } from './shared/secret-box.js';

const EVERY_MS = 10 * 60 * 1000;
const BIRTHDAYS_EVERY_MS = 60 * 1000;

/**
 * `secrets`: the process's keys, to seal leftovers again with; without it (a test of the other chores) none are.
 * `auditRetentionDays`: audit log entries older than this are deleted (730 days, as configured by default).
 */
export function startHousekeeping(
  db: Db,
  clock: Clock,
  log: { error(obj: object, msg: string): void },
  secrets?: SecretBox,
  auditRetentionDays = 730,
): { stop(): void } {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    const now = clock.now();
    running = Promise.all([
      forgetExpiredAnswers(db, now),
      markExpiredHolds(db, now),
      runExpiry(db, now),
      forgetInterruptedUploads(db, now),
      secrets && sealAgainWithFirstKey(db, secrets),
      secrets && sealConnectionsAgain(db, secrets),
      purgeAuditEvents(db, auditRetentionDays),
      forgetFailedUpdates(db, now),
      forgetExpiredSignUps(db, now),
    ]).catch((err: unknown) =>
      log.error({ err }, 'housekeeping failed; it runs again later'),
    );
  };
  let birthdays: Promise<unknown> | undefined;
  // A pass still running (a large chain's birthdays) is not joined by another.
  const minutely = () => {
    const now = clock.now();
    birthdays ??= Promise.all([
      runBirthdays(db, now).catch((err: unknown) => log.error({ err }, 'birthday credits failed; they run again in a minute')),
      runLevelPeriods(db, now).catch((err: unknown) => log.error({ err }, 'judging levels again failed; it runs again in a minute')),
    ]).finally(() => (birthdays = undefined));
  };
  const timers = [setInterval(tick, EVERY_MS), setInterval(minutely, BIRTHDAYS_EVERY_MS)];
  for (const timer of timers) timer.unref();
  tick();
  minutely();
  return {
    stop() {
      for (const timer of timers) clearInterval(timer);
      return Promise.all([running, birthdays]);
    },
  };
}
