import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { SandboxDesk } from '@pcs/gateways';
import { CheckoutExpiryService } from './b2b/checkout-expiry.service';
import { SessionExpiryService } from './expiry/session-expiry.service';
import { ReconciliationService } from './reconciliation/reconciliation.service';

/**
 * Background work of an API process: expiring abandoned gateway sessions
 * and unpaid B2B checkouts,
 * reconciling charges and refunds that waited too long for their gateway
 * (what a crash leaves behind), and the sandbox gateway's own housekeeping.
 * It runs at start-up and then every few seconds. Every step is safe with
 * several replicas running (SKIP LOCKED, conditional updates, idempotent
 * gateway requests and callbacks, final payins absorbing late answers).
 */
@Injectable()
export class PaymentIntentSweeps implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sweeps');
  private timer?: NodeJS.Timeout;
  private running: Promise<void> | null = null;

  constructor(
    private readonly expiry: SessionExpiryService,
    private readonly checkouts: CheckoutExpiryService,
    private readonly reconciliation: ReconciliationService,
    private readonly sandbox: SandboxDesk,
    private readonly settings: RuntimeSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.settings.gateway.sweepSeconds * 1000);
    this.timer.unref();
    // At start-up too: what a crash left open is settled as soon as its window has passed.
    setImmediate(() => void this.runOnce());
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass of every sweep; a pass already running in this process is waited for, not doubled. */
  runOnce(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
      const expired = await this.expiry.expireSessions();
      if (expired) this.logger.log(`expired ${expired} abandoned gateway session(s)`);
      const checkouts = await this.checkouts.expireDue();
      if (checkouts) this.logger.log(`expired ${checkouts} unpaid B2B checkout(s)`);
      const reconciled = await this.reconciliation.reconcileDue();
      if (reconciled) this.logger.log(`asked the gateways about ${reconciled} overdue payin(s)`);
      await this.sandbox.settleDue();
      await this.sandbox.redeliver();
    } catch (error) {
      this.logger.error(`sweep failed: ${(error as Error).message}`);
    }
  }
}
