import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { EventsModule } from '@pcs/events';
import { JobsModule } from '@pcs/jobs';
import { MailModule } from '@pcs/mail';
import { MerchantsModule } from '@pcs/merchants';
import { BalancesService } from './balances.service';
import { BusinessCalendar } from './domain/business-calendar';
import { PayoutsService } from './payouts.service';
import { BalanceTransactionOrmEntity } from './persistence/balance-transaction.orm-entity';
import { BankOrmEntity } from './persistence/bank.orm-entity';
import { MerchantPricingOrmEntity } from './persistence/merchant-pricing.orm-entity';
import { PayoutOrmEntity } from './persistence/payout.orm-entity';
import { SettlementAccountOrmEntity } from './persistence/settlement-account.orm-entity';
import {
  TypeOrmBalanceRepository,
  TypeOrmPayoutBatchRepository,
  TypeOrmPayoutRepository,
  TypeOrmPricingRepository,
  TypeOrmSettlementAccountRepository,
} from './persistence/typeorm-settlement.repositories';
import { PricingService } from './pricing.service';
import { SettlementAccountsService } from './settlement-accounts.service';
import { SettlementEvents } from './settlement-events';
import { SettlementDailyService } from './settlement-daily.service';
import { SettlementWorkers } from './settlement-workers';
import {
  BalanceRepository,
  PayoutBatchRepository,
  PayoutRepository,
  PricingRepository,
  SettlementAccountRepository,
} from './settlement.repository';
import { PayoutBatchesService } from './payout-batches.service';
import { MailedPayoutNotices, PayoutNotices } from './payout-notices';

/**
 * After the collection (contract §19): prices and fees, balances and their
 * transactions, settlement accounts and payouts. Its services serve the APIs
 * and the operator's commands; its workers run only where SettlementWorkersModule is imported.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      BankOrmEntity,
      SettlementAccountOrmEntity,
      PayoutOrmEntity,
      BalanceTransactionOrmEntity,
      MerchantPricingOrmEntity,
    ]),
    CatalogModule,
    MerchantsModule,
    EventsModule,
    JobsModule,
    MailModule,
  ],
  providers: [
    { provide: BusinessCalendar, useValue: new BusinessCalendar() },
    { provide: PricingRepository, useClass: TypeOrmPricingRepository },
    { provide: SettlementAccountRepository, useClass: TypeOrmSettlementAccountRepository },
    { provide: BalanceRepository, useClass: TypeOrmBalanceRepository },
    { provide: PayoutRepository, useClass: TypeOrmPayoutRepository },
    { provide: PayoutBatchRepository, useClass: TypeOrmPayoutBatchRepository },
    { provide: PayoutNotices, useClass: MailedPayoutNotices },
    PricingService,
    SettlementAccountsService,
    BalancesService,
    PayoutsService,
    PayoutBatchesService,
    SettlementDailyService,
    SettlementEvents,
  ],
  exports: [
    BusinessCalendar,
    PricingService,
    SettlementAccountsService,
    BalancesService,
    PayoutsService,
    PayoutBatchesService,
    SettlementDailyService,
  ],
})
export class SettlementModule {}

/** The payout worker and the daily settlement runs, for the API processes. */
@Module({ imports: [SettlementModule, JobsModule], providers: [SettlementWorkers], exports: [SettlementModule] })
export class SettlementWorkersModule {}
