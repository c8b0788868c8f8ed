import { Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventsModule } from '@pcs/events';
import { JobQueue, JobsModule } from '@pcs/jobs';
import { MerchantsModule } from '@pcs/merchants';
import { PaymentsModule } from '@pcs/payments';
import { SettlementModule } from '@pcs/settlement';
import { DisputeChanges } from './dispute-changes';
import { DisputeReports } from './dispute-reports.service';
import { DisputeRepository } from './dispute.repository';
import { DisputesService, SANDBOX_DECISION_QUEUE } from './disputes.service';
import { DisputeEvidenceOrmEntity, DisputeOrmEntity } from './persistence/dispute.orm-entity';
import { TypeOrmDisputeRepository } from './persistence/typeorm-dispute.repository';

/**
 * Disputes and chargebacks (contract §21): a context beside refunds that
 * moves money through the balance context and reads and updates the
 * payment intent through its public surface.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([DisputeOrmEntity, DisputeEvidenceOrmEntity]),
    PaymentsModule,
    SettlementModule,
    EventsModule,
    JobsModule,
    MerchantsModule,
  ],
  providers: [{ provide: DisputeRepository, useClass: TypeOrmDisputeRepository }, DisputeChanges, DisputeReports, DisputesService],
  exports: [DisputeReports, DisputesService],
})
export class DisputesModule {}

/** The sandbox's decisions a few seconds after a submission, worked in the API processes. */
@Injectable()
export class DisputeWorkers implements OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly reports: DisputeReports,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<{ disputeId: string }>(SANDBOX_DECISION_QUEUE, { batchSize: 5, pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const { data } of jobs) await this.reports.decideSandbox(data.disputeId);
    });
  }
}

@Module({ imports: [DisputesModule, JobsModule], providers: [DisputeWorkers], exports: [DisputesModule] })
export class DisputeWorkersModule {}
