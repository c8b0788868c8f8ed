import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { DashboardSettings } from './settings';

const PURGE_EVERY_MS = 15 * 60_000;
const HEAD_EVERY_MS = 60_000;

/**
 * Every 15 minutes, ended sessions and spent sign-in counters are deleted;
 * every minute, the audit chain's head is written outside the database (a
 * file under DATA_DIR, and the log), so that a removed tail is found by
 * `audit:verify` (contract §22). A failure waits for the next round.
 */
@Injectable()
export class Housekeeping implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Housekeeping');
  private readonly timers: NodeJS.Timeout[] = [];
  private lastHead = '';

  constructor(
    private readonly identity: DashboardIdentity,
    private readonly settings: DashboardSettings,
  ) {}

  onModuleInit(): void {
    const warn = (what: string) => (error: unknown) =>
      this.logger.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    this.timers.push(setInterval(() => void this.identity.purgeExpired().catch(warn('purge')), PURGE_EVERY_MS).unref());
    if (this.settings.auditHeadFile)
      this.timers.push(setInterval(() => void this.writeHead().catch(warn('audit head')), HEAD_EVERY_MS).unref());
  }

  /** The head as it is now, when it moved: to the file (only forward) and to the log; a log that disagrees with the file is an error. */
  async writeHead(): Promise<void> {
    if (!this.settings.auditHeadFile) return;
    const { head, agrees } = await this.identity.advanceChainHead(this.settings.auditHeadFile);
    if (!agrees) {
      this.logger.error(`the audit log differs from its head at ${head?.sequence}: run npm run admin -- audit:verify`);
      return;
    }
    const line = head ? `${head.sequence} ${head.hmac}` : '';
    if (!head || line === this.lastHead) return;
    this.logger.log(`audit head ${line}`);
    this.lastHead = line;
  }

  async onApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.writeHead().catch(() => undefined);
  }
}
