import { Injectable, OnModuleInit } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { DailyRuns } from '@pcs/jobs';
import { RECONCILIATION_DAILY_RUN, RECONCILIATION_HOUR, ReconciliationRunsService } from './reconciliation-runs.service';

/** Each country's daily reconciliation of yesterday's reports, at 07:00 its time, once across processes. */
@Injectable()
export class ReconciliationWorkers implements OnModuleInit {
  constructor(
    private readonly dailyRuns: DailyRuns,
    private readonly runs: ReconciliationRunsService,
    private readonly catalog: CatalogService,
  ) {}

  onModuleInit(): void {
    this.dailyRuns.register(
      RECONCILIATION_DAILY_RUN,
      RECONCILIATION_HOUR,
      async () => (await this.catalog.listCountries()).map((country) => ({ scope: country.iso3, timeZone: country.timeZone })),
      (country, day) => this.runs.runDaily(country, day),
    );
  }
}
