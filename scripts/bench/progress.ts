// One progress bar for the whole run, advanced by time through phases whose lengths are estimated up front;
// without a terminal, one line per phase instead.
import cliProgress from 'cli-progress';

export class Progress {
  private readonly bar: cliProgress.SingleBar | undefined;
  private done = 0;
  private current: { label: string; estimate: number; started: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly t0 = Date.now();

  /** `name` starts each line written without a terminal (the bench's, the soak's). */
  constructor(private total: number, private readonly name = 'bench') {
    if (process.stderr.isTTY) {
      this.bar = new cliProgress.SingleBar(
        {
          format: ' {bar} {percentage}% | {elapsedText} elapsed, about {leftText} left | {phase}',
          stream: process.stderr,
          hideCursor: true,
          barsize: 30,
          etaBuffer: 1,
        },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(Math.round(total * 10), 0, this.payload('starting'));
      this.timer = setInterval(() => this.render(), 250);
      this.timer.unref();
    }
  }

  private payload(phase: string) {
    const elapsed = (Date.now() - this.t0) / 1000;
    const value = this.value();
    const left = Math.max(0, this.total - value);
    const fmt = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.round(s)}s`);
    return { phase, elapsedText: fmt(elapsed), leftText: fmt(left) };
  }

  private value(): number {
    if (!this.current) return this.done;
    const spent = (Date.now() - this.current.started) / 1000;
    return this.done + Math.min(spent, this.current.estimate * 0.98);
  }

  private render(): void {
    if (!this.bar || !this.current) return;
    this.bar.update(Math.round(Math.min(this.value(), this.total) * 10), this.payload(this.current.label));
  }

  /** Starts a phase expected to take `estimate` seconds (ending the previous one). */
  phase(label: string, estimate: number): void {
    this.finishPhase();
    this.current = { label, estimate, started: Date.now() };
    if (!this.bar) process.stderr.write(`[${this.name} ${Math.round((Date.now() - this.t0) / 1000)}s] ${label}\n`);
    this.render();
  }

  /** Renames the current phase (a step within it) without moving on. */
  detail(label: string): void {
    if (!this.current) return;
    this.current.label = label;
    if (!this.bar) process.stderr.write(`[${this.name} ${Math.round((Date.now() - this.t0) / 1000)}s]   ${label}\n`);
    this.render();
  }

  private finishPhase(): void {
    if (this.current) this.done += this.current.estimate;
    this.current = undefined;
  }

  /** A note that must be seen (a warning), printed above the bar. */
  note(text: string): void {
    if (this.bar) {
      this.bar.stop();
      process.stderr.write(`${text}\n`);
      this.bar.start(Math.round(this.total * 10), Math.round(this.value() * 10), this.payload(this.current?.label ?? ''));
    } else {
      process.stderr.write(`${text}\n`);
    }
  }

  stop(): void {
    this.finishPhase();
    if (this.timer) clearInterval(this.timer);
    if (this.bar) {
      this.bar.update(Math.round(this.total * 10), this.payload('done'));
      this.bar.stop();
    }
  }
}
