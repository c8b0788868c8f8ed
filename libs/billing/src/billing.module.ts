import { Injectable, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import { EventsModule } from '@pcs/events';
import { GatewaysModule } from '@pcs/gateways';
import { MailModule } from '@pcs/mail';
import { MerchantsModule } from '@pcs/merchants';
import { PayersModule } from '@pcs/payers';
import { PaymentInstrumentsModule } from '@pcs/payment-instruments';
import { PaymentsModule } from '@pcs/payments';
import { BillingChanges } from './billing-changes';
import { BillingSetups } from './billing-setups';
import { BillingScheduler } from './billing-scheduler';
import { BillingRepository } from './billing.repository';
import { InvoiceOrmEntity, SubscriptionOrmEntity, TestClockOrmEntity } from './persistence/billing.orm-entity';
import { TypeOrmBillingRepository } from './persistence/typeorm-billing.repository';
import { SubscriptionsService } from './subscriptions.service';
import { TestClocksService } from './test-clocks.service';

/**
 * Recurring payments (contract §31): subscriptions, their invoices and test clocks. Charges go through the
 * payments context's named API (a confirmed off-session creation); the merchant's dunning comes from its
 * configuration; a decline's kind from the gateway that wrote it.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([TestClockOrmEntity, SubscriptionOrmEntity, InvoiceOrmEntity]),
    CatalogModule,
    EventsModule,
    GatewaysModule,
    MailModule,
    MerchantsModule,
    PayersModule,
    PaymentInstrumentsModule,
    PaymentsModule,
  ],
  providers: [
    { provide: BillingRepository, useClass: TypeOrmBillingRepository },
    BillingChanges,
    BillingSetups,
    BillingScheduler,
    SubscriptionsService,
    TestClocksService,
  ],
  exports: [SubscriptionsService, TestClocksService, BillingScheduler],
})
export class BillingModule {}

/**
 * The real clock's billing in an API process: every few seconds (the gateway sweep's period), and at start-up,
 * whatever fell due (what a crash or a stop left behind included). Any number of processes may run it.
 */
@Injectable()
export class BillingSweeps implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BillingSweeps');
  private timer?: NodeJS.Timeout;
  private running: Promise<void> | null = null;

  constructor(
    private readonly scheduler: BillingScheduler,
    private readonly settings: RuntimeSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.settings.gateway.sweepSeconds * 1000);
    this.timer.unref();
    setImmediate(() => void this.runOnce());
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass; a pass already running in this process is waited for, not doubled. */
  runOnce(): Promise<void> {
    this.running ??= this.scheduler
      .runDue(null, new Date())
      .then((done) => {
        if (done) this.logger.log(`billing: ${done} step(s) done`);
      })
      .catch((error: unknown) => this.logger.warn(`billing pass failed: ${(error as Error).message}`))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}

@Module({ imports: [BillingModule], providers: [BillingSweeps], exports: [BillingModule] })
export class BillingWorkersModule {}
