// The one scheduler loop of the server's background passes (notification delivery, drift events):
// a pass at a time on an interval, failures logged, and a stop that waits for the pass under way.
import type { FastifyBaseLogger } from 'fastify';

/** Runs `pass` every interval, one at a time, until stopped; a pass that fails is logged. */
export class RepeatingPass {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    private readonly name: string,
  ) {}

  start(intervalInMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.pass()
        .catch((error: unknown) => this.log.warn({ err: error }, `${this.name} failed`))
        .finally(() => {
          this.running = undefined;
        });
    }, intervalInMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
