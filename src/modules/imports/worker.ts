// The import worker of the worker role: takes member imports one at a time; on stop it ends between batches and
// leaves the job for the next worker to resume.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/database.js';
import type { Clock } from '../../shared/clock.js';
import { newId } from '../../shared/ids.js';
import { runNextImport } from './service.js';

const IDLE_MS = 2000;

export function startImportWorker(db: Db, clock: Clock, log: { error(obj: object, msg: string): void }): { stop(): Promise<void> } {
  const workerId = newId();
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      let ran = false;
      try {
        ran = await runNextImport(db, clock, workerId, stopping.signal);
      } catch (err) {
        log.error({ err }, 'member import failed; another turn takes it over once its claim runs out');
      }
      if (!ran) await sleep(IDLE_MS, undefined, { signal: stopping.signal, ref: false }).catch(() => undefined);
    }
  })();
  return {
    stop() {
      stopping.abort();
      return loop;
    },
  };
}
