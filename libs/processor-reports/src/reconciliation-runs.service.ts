import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CatalogService } from '@pcs/catalog';
import { afterCommit, inTransaction } from '@pcs/database';
import { EventRecorder } from '@pcs/events';
import { GatewayRegistry } from '@pcs/gateways';
import {
  addDays,
  Caller,
  DomainError,
  scopeCovers,
  tenantScope,
  LocalDate,
  MerchantId,
  Page,
  PageRequest,
  startOfLocalDay,
  wireAmount,
} from '@pcs/kernel';
import { MerchantAccess, MerchantService } from '@pcs/merchants';
import { metrics } from '@pcs/observability';
import { PayinLedgerService } from '@pcs/payins';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { reconcile, Side } from './domain/reconciliation';
import type { ReconciliationRun } from './domain/reconciliation-run';
import { ReconciliationRunRepository } from './reconciliation-runs.repository';

/** The local hour of a country's daily reconciliation (after its 06:00 settlement run). */
export const RECONCILIATION_HOUR = 7;
export const RECONCILIATION_DAILY_RUN = 'reconciliation';

/**
 * Reconciliation with the processors' reports (contract §19): a run fetches
 * a merchant's report of what the processor released over inclusive local
 * dates (the merchant's country's), matches it line by line with our
 * records, and keeps the result. A discrepancy never moves money: it is
 * shown (the API, the dashboard), counted in /metrics and announced as the
 * event `reconciliation.discrepancy`.
 */
@Injectable()
export class ReconciliationRunsService {
  private readonly logger = new Logger('Reconciliation');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly registry: GatewayRegistry,
    private readonly runs: ReconciliationRunRepository,
    private readonly ledger: PayinLedgerService,
    private readonly merchants: MerchantService,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly events: EventRecorder,
  ) {}

  /** Reconciles a merchant's report of [from, to] (inclusive local dates) now; the run is kept whatever happens (COMPLETED or FAILED). */
  async run(merchantId: MerchantId, from: LocalDate, to: LocalDate, provider = 'MERCADO_PAGO'): Promise<ReconciliationRun> {
    const reports = this.registry.processorReports().find((r) => r.provider === provider);
    if (!reports) throw new Error(`no reports of ${provider}`);
    const merchant = await this.merchants.findById(merchantId);
    const country = merchant && (await this.catalog.findCountryById(merchant.countryId));
    if (!merchant || !country) throw new Error('no merchant has that id');
    const runId = crypto.randomUUID();
    await this.runs.start(this.dataSource.manager, {
      runId,
      businessId: merchant.businessId,
      merchantId,
      provider,
      from,
      to,
      createdAt: new Date(),
    });
    const window = { from: startOfLocalDay(from, country.timeZone), to: startOfLocalDay(addDays(to, 1), country.timeZone) };
    try {
      const lines = await reports.releaseLines(merchantId, window.from, new Date(window.to.getTime() - 1000));
      const references = lines.flatMap((line) => (line.externalReference ? [line.externalReference] : []));
      const records = await this.ledger.reconciliationRecords(merchantId, provider, references, window.from, window.to);
      const result = reconcile(lines, records, window);
      await inTransaction(this.dataSource, async (manager) => {
        await this.runs.complete(manager, runId, result, new Date());
        if (result.discrepancies.length > 0)
          await this.events.recordAll(
            manager,
            result.discrepancies.map((d) => ({
              type: 'reconciliation.discrepancy' as const,
              businessId: merchant.businessId,
              merchantId,
              subjectId: runId,
              object: { runId, merchantId, provider, ...presentDiscrepancy(d) },
            })),
          );
        afterCommit(manager, () => {
          metrics.reconciliationRuns.inc({ provider, result: 'completed' });
          for (const d of result.discrepancies) metrics.reconciliationDiscrepancies.inc({ provider, kind: d.kind });
        });
      });
      this.logger.log(`${provider} ${merchantId} ${from}..${to}: ${result.matched} matched, ${result.discrepancies.length} discrepancies`);
    } catch (error) {
      await this.runs.fail(this.dataSource.manager, runId, (error as Error).message, new Date());
      metrics.reconciliationRuns.inc({ provider, result: 'failed' });
      this.logger.warn(`${provider} ${merchantId} ${from}..${to} failed: ${(error as Error).message}`);
    }
    return (await this.runs.find(this.dataSource.manager, runId))!;
  }

  /** Yesterday's report (the country's yesterday) of every merchant of the country connected to a processor with reports. */
  async runDaily(countryIso3: string, today: LocalDate): Promise<void> {
    const country = await this.catalog.findCountryByIso3(countryIso3);
    if (!country) return;
    const yesterday = addDays(today, -1);
    for (const reports of this.registry.processorReports())
      for (const merchantId of await reports.merchants()) {
        const merchant = await this.merchants.findById(merchantId as MerchantId);
        if (!merchant || merchant.deletedAt !== null || merchant.countryId !== country.countryId) continue;
        // Once per merchant and day: a retried daily job skips what it already reconciled.
        const done = await this.runs.completedFor(this.dataSource.manager, merchantId, reports.provider, yesterday);
        if (!done) await this.run(merchantId as MerchantId, yesterday, yesterday, reports.provider);
      }
  }

  async get(caller: Caller, runId: string): Promise<ReconciliationRun> {
    const run = await this.runs.find(this.dataSource.manager, runId);
    if (!run || !scopeCovers(tenantScope(caller), run)) throw new DomainError('RECONCILIATION_RUN_NOT_FOUND');
    return run;
  }

  async list(caller: Caller, merchantId: MerchantId | undefined, page: PageRequest): Promise<Page<ReconciliationRun>> {
    return this.runs.list(this.dataSource.manager, await this.access.scopeOf(caller, merchantId), page);
  }
}

/** A side in wire amounts (major units of its currency). */
function presentSide(side: Side | null) {
  if (!side) return null;
  const wire = (minor: number | null) => (minor === null || !side.currency ? minor : wireAmount(minor, side.currency));
  return { externalId: side.externalId, amount: wire(side.amount), fee: wire(side.fee), date: side.date?.toISOString() ?? null };
}

export function presentDiscrepancy(d: ReconciliationRun['discrepancies'][number]) {
  return { kind: d.kind, externalId: d.externalId, ours: presentSide(d.ours), theirs: presentSide(d.theirs) };
}

/** A run as the API and the operator's command show it. */
export function reconciliationRunRepresentation(run: ReconciliationRun) {
  return {
    runId: run.runId,
    merchantId: run.merchantId,
    provider: run.provider,
    from: run.from,
    to: run.to,
    status: run.status,
    matched: run.matched,
    ignored: run.ignored,
    failureReason: run.failureReason,
    discrepancies: run.discrepancies.map(presentDiscrepancy),
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}
