// What a long script (the bench, the soak) has started, and how all of it goes away on success, failure or Ctrl-C.
import type { Started } from './processes.js';

export class Lifecycle {
  private readonly running = new Set<Started>();
  private readonly cleanups: (() => unknown)[] = [];

  /** Stopped at the end unless it has exited by then. */
  track(p: Started): Started {
    this.running.add(p);
    p.child.once('exit', () => this.running.delete(p));
    return p;
  }

  /** Run at the end, last added first (a database is dropped after the processes using it stop). */
  onCleanUp(cleanUp: () => unknown): void {
    this.cleanups.push(cleanUp);
  }

  private async cleanUp(): Promise<void> {
    await Promise.all([...this.running].map((p) => p.stop().catch(() => null)));
    for (const c of this.cleanups.reverse()) await Promise.resolve().then(c).catch(() => {});
  }

  /** Runs `main` and exits with its code; a failure or a first Ctrl-C still cleans up, a second exits at once. */
  run(name: string, main: () => Promise<number>, progress: { stop(): void }, interruptedNote: string): void {
    let interrupted = false;
    process.on('SIGINT', () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      progress.stop();
      process.stderr.write(`\nInterrupted: ${interruptedNote}…\n`);
      void this.cleanUp().finally(() => process.exit(130));
    });
    main()
      .then(async (code) => {
        await this.cleanUp();
        process.exit(code);
      })
      .catch(async (err) => {
        progress.stop();
        process.stderr.write(`\n${name} failed: ${(err as Error).stack ?? err}\n`);
        await this.cleanUp();
        process.exit(1);
      });
  }
}
