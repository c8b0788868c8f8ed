import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { SandboxDesk } from '@pcs/gateways';
import { PaymentAttemptsService } from './payment-attempts.service';

/**
 * Background work of an API process: expiring abandoned gateway sessions and
 * the sandbox gateway's own housekeeping. Every step is safe with several
 * replicas running (SKIP LOCKED, conditional updates, idempotent callbacks).
 */
@Injectable()
export class PaymentIntentSweeps implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sweeps');
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly attempts: PaymentAttemptsService,
    private readonly sandbox: SandboxDesk,
    private readonly settings: RuntimeSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.settings.gateway.sweepSeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One pass of every sweep; overlapping passes in one process are skipped. */
  async runOnce(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const expired = await this.attempts.expireSessions();
      if (expired) this.logger.log(`expired ${expired} abandoned gateway session(s)`);
      await this.sandbox.settleDue();
      await this.sandbox.redeliver();
    } catch (error) {
      this.logger.error(`sweep failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }
}
