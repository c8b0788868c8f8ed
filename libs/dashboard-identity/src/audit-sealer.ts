import { Logger } from '@nestjs/common';
import { AuditLog } from './persistence/audit-log';

/** How often a process looks for entries to seal (contract §29: normally within a second). */
export const SEAL_EVERY_MS = 500;

/**
 * Runs the audit log's sealer off the request path (contract §29): every
 * SEAL_EVERY_MS this process tries to become the one sealer at work (an
 * advisory lock tried, never waited for) and chains what waits. Every
 * process that writes entries runs one (the APIs, the dashboard); only one
 * seals at a time, so there is one order. A failure is logged once per kind
 * and tried again on the next round; `audit:verify` fails on an entry left
 * unsealed longer than a minute, so a sealer that stopped working is found.
 */
export class AuditSealer {
  private readonly logger = new Logger('AuditSealer');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private lastFailure = '';

  constructor(
    private readonly log: AuditLog,
    private readonly everyMs = SEAL_EVERY_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.round(), this.everyMs).unref();
  }

  /** One round now (what a shutdown or a test waits for); a round already running is waited for instead. */
  round(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.log
      .seal()
      .then(() => {
        if (this.lastFailure) this.logger.log('sealing the audit log again');
        this.lastFailure = '';
      })
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (message !== this.lastFailure) this.logger.error(`could not seal the audit log: ${message}`);
        this.lastFailure = message;
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Stops the rounds, and seals once more what was written before (a shutdown leaves as little as it can to the next sealer). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.round();
  }
}
