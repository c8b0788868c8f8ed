import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pcs/catalog';
import { DisputesModule } from '@pcs/disputes';
import { EventsModule } from '@pcs/events';
import { GatewaysModule } from '@pcs/gateways';
import { JobsModule } from '@pcs/jobs';
import { MerchantsModule } from '@pcs/merchants';
import { PaymentLedgerModule, PaymentsModule } from '@pcs/payments';
import { ReconciliationDiscrepancyOrmEntity, ReconciliationRunOrmEntity } from './persistence/reconciliation-run.orm-entity';
import { TypeOrmReconciliationRunRepository } from './persistence/typeorm-reconciliation-runs.repository';
import { ReconciliationRunRepository } from './reconciliation-runs.repository';
import { ReconciliationRunsService } from './reconciliation-runs.service';
import { ReconciliationWorkers } from './reconciliation-workers';
import { ProcessorNotices } from './processor-notices';

/** What processors tell: their notices (contract §23) and their reports, reconciled with our records (contract §19). */
@Module({
  imports: [
    TypeOrmModule.forFeature([ReconciliationRunOrmEntity, ReconciliationDiscrepancyOrmEntity]),
    CatalogModule,
    EventsModule,
    GatewaysModule,
    JobsModule,
    MerchantsModule,
    PaymentLedgerModule,
    PaymentsModule,
    DisputesModule,
  ],
  providers: [
    { provide: ReconciliationRunRepository, useClass: TypeOrmReconciliationRunRepository },
    ReconciliationRunsService,
    ProcessorNotices,
  ],
  exports: [ReconciliationRunsService, ProcessorNotices],
})
export class ProcessorReportsModule {}

/** The daily reconciliation runs, for the API processes. */
@Module({
  imports: [ProcessorReportsModule, JobsModule, CatalogModule],
  providers: [ReconciliationWorkers],
  exports: [ProcessorReportsModule],
})
export class ProcessorReportsWorkersModule {}
