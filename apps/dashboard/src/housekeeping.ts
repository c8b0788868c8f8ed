import { Injectable, Logger, BeforeApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { anchorKeyOf, AuditSealer, DashboardIdentity, sendAnchor } from '@pcs/dashboard-identity';
import { DashboardSettings } from './settings';

const PURGE_EVERY_MS = 15 * 60_000;
const HEAD_EVERY_MS = 60_000;

/**
 * Every 15 minutes, ended sessions and spent sign-in counters are deleted;
 * twice a second, the audit log's new entries are sealed into its chain
 * (AuditSealer, one sealer at a time across processes);
 * every minute, the audit chain's head is written outside the database (a
 * file under DATA_DIR, and the log), so that a removed tail is found by
 * `audit:verify` (contract §22), and sent off the host to AUDIT_ANCHOR_URL
 * when set (contract §27), at shutdown too. A failure waits for the next
 * round.
 */
@Injectable()
export class Housekeeping implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('Housekeeping');
  private readonly timers: NodeJS.Timeout[] = [];
  private lastHead = '';
  private readonly sealer: AuditSealer;

  constructor(
    private readonly identity: DashboardIdentity,
    private readonly settings: DashboardSettings,
  ) {
    this.sealer = new AuditSealer(identity.auditLogStore);
  }

  onModuleInit(): void {
    const warn = (what: string) => (error: unknown) =>
      this.logger.warn(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    this.timers.push(setInterval(() => void this.identity.purgeExpired().catch(warn('purge')), PURGE_EVERY_MS).unref());
    // The audit log's entries are chained off the request path by one sealer across every process (contract §29).
    this.sealer.start();
    if (this.settings.auditHeadFile || this.settings.auditAnchorUrl)
      this.timers.push(setInterval(() => void this.writeHead().catch(warn('audit head')), HEAD_EVERY_MS).unref());
  }

  /**
   * The head as it is now: to the file (only forward) and to the log when it
   * moved, and to the anchor every round. A log that disagrees with the
   * file is an error, and then nothing is sent: the anchor keeps the last
   * head that was whole.
   */
  async writeHead(): Promise<void> {
    if (!this.settings.auditHeadFile && !this.settings.auditAnchorUrl) return;
    let head: { sequence: number; hmac: string } | null;
    if (this.settings.auditHeadFile) {
      const advanced = await this.identity.advanceChainHead(this.settings.auditHeadFile);
      if (!advanced.agrees) {
        this.logger.error(`the audit log differs from its head at ${advanced.head?.sequence}: run npm run admin -- audit:verify`);
        return;
      }
      head = advanced.head;
    } else head = await this.identity.auditHead();
    if (!head) return;
    const line = `${head.sequence} ${head.hmac}`;
    if (line !== this.lastHead) {
      this.logger.log(`audit head ${line}`);
      this.lastHead = line;
    }
    // Signed under the current master key's anchor key (contract §29): a head nobody with the key sent is ignored by audit:verify.
    if (this.settings.auditAnchorUrl)
      await sendAnchor(this.settings.auditAnchorUrl, head, anchorKeyOf(this.settings.secretsMasterKey), {
        token: this.settings.auditAnchorToken,
      });
  }

  /** Before the application's shutdown hooks close the database: the last round of sealing and the head. */
  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.sealer.stop();
    await this.writeHead().catch((error: unknown) =>
      this.logger.warn(`audit head at shutdown failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}
