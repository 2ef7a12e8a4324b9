// Housekeeping the worker role runs now and then: Idempotency-Key answers past their 24 hours are deleted in
// bounded batches (reads never replay them; this only keeps the table from growing).
import type { Db } from './db/database.js';
import { forgetExpiredAnswers } from './http/idempotency.js';
import type { Clock } from './shared/clock.js';

const EVERY_MS = 10 * 60 * 1000;

export function startHousekeeping(db: Db, clock: Clock, log: { error(obj: object, msg: string): void }): { stop(): void } {
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = forgetExpiredAnswers(db, clock.now()).catch((err: unknown) => log.error({ err }, 'housekeeping failed; it runs again later'));
  };
  const timer = setInterval(tick, EVERY_MS);
  timer.unref();
  tick();
  return {
    stop() {
      clearInterval(timer);
      return running;
    },
  };
}
