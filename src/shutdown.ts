// The deadline on graceful shutdown: once it passes the process ends, whatever is still pending or stuck.
import { Worker } from 'node:worker_threads';

// How long after the deadline the second thread kills the process, should the main thread not have exited by then.
const BACKSTOP_MS = 2_000;

/** One line to standard error that can neither throw nor crash the process when stderr is closed too. */
export function sayOnStderr(line: string): void {
  try {
    process.stderr.write(`${line}\n`);
  } catch {
    // Nowhere left to say it.
  }
}

/**
 * Arms the deadline: after `ms` the process exits with code 1. What can hold a shutdown open is waited for only
 * this long: a request in flight to a webhook receiver that never answers, a client holding a keep-alive
 * connection, a database that does not answer. A write to a full or closed standard output can block the main
 * thread itself, where no timer runs; so a second thread kills the process a little later if it is still there.
 */
export function armShutdownDeadline(ms: number): void {
  // Writes to a closed pipe fail asynchronously; during shutdown that must not become an uncaught exception.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  // Not unref'd: this timer is what ends a shutdown that nothing else ends.
  setTimeout(() => {
    sayOnStderr(`Venue Loyalty: shutdown did not finish within ${ms} ms; exiting anyway.`);
    process.exit(1);
  }, ms);
  const backstop = new Worker(`setTimeout(() => process.kill(${process.pid}, 'SIGKILL'), ${ms + BACKSTOP_MS});`, { eval: true });
  backstop.unref();
}
