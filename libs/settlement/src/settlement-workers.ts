import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import { DailyRuns, JobQueue } from '@pcs/jobs';
import { PayoutsService } from './payouts.service';
import { PAYOUT_HOUR, SETTLEMENT_DAILY_RUN, SettlementDailyService } from './settlement-daily.service';

/**
 * The background work of balances and payouts in an API process: the payout
 * worker (hands payouts to their rail, and takes the sandbox rail's answer
 * after its delay) and each country's daily settlement run at 06:00.
 */
@Injectable()
export class SettlementWorkers implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly jobs: JobQueue,
    private readonly dailyRuns: DailyRuns,
    private readonly payouts: PayoutsService,
    private readonly daily: SettlementDailyService,
    private readonly settings: RuntimeSettings,
  ) {}

  onModuleInit(): void {
    this.dailyRuns.register(
      SETTLEMENT_DAILY_RUN,
      PAYOUT_HOUR,
      () => this.daily.scopes(),
      async (country, day) => {
        await this.daily.run(country, day);
      },
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<{ payoutId: string; step: 'dispatch' | 'settle' }>(
      this.settings.settlement.payoutQueue,
      { batchSize: 10, pollingIntervalSeconds: this.settings.settlement.pollSeconds },
      async (jobs) => {
        for (const { data } of jobs)
          await (data.step === 'settle' ? this.payouts.settle(data.payoutId) : this.payouts.dispatch(data.payoutId));
      },
    );
  }
}
