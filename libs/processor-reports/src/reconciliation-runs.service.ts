/*
 * Why one file: one reconciliation run (the processor's report fetched, matched, its discrepancies recorded and
 * settled): its steps share the run's claim and counters.
 */
import { Injectable, Logger } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { EventRecorder } from '@pcs/events';
import { GatewayRegistry, ProcessorLookups, readsPayments } from '@pcs/gateways';
import {
  addDays,
  Caller,
  Currency,
  DomainError,
  LocalDate,
  localDateOf,
  MerchantId,
  Page,
  PageRequest,
  scopeCovers,
  startOfLocalDay,
  tenantScope,
  UnitOfWork,
  wireAmount,
} from '@pcs/kernel';
import { MerchantAccess, MerchantService } from '@pcs/merchants';
import { metrics } from '@pcs/observability';
import { DisputesService } from '@pcs/disputes';
import { FindingSide, PayinLedgerService, ProcessorFinding } from '@pcs/payments';
import * as crypto from 'node:crypto';
import { DisputeRecord, reconcile, Reconciliation, ReportTotals, Side } from './domain/reconciliation';
import { ProcessorNotices } from './processor-notices';
import type { ReconciliationRun } from './domain/reconciliation-run';
import { ReconciliationRunRepository } from './reconciliation-runs.repository';

/** The local hour of a country's daily reconciliation (after its 06:00 settlement run). */
export const RECONCILIATION_HOUR = 7;
export const RECONCILIATION_DAILY_RUN = 'reconciliation';
/** How far back a daily run catches up (Mercado Pago's longest report window). */
export const CATCH_UP_DAYS = 60;
/** The most payments one run reads again at the processor before comparing (refunds or holds our records do not show yet). */
const MOST_REREAD = 200;
/** How long a payment is looked up at a processor without reports: a card payment can be charged back for 180 days (§28). */
export const CHARGEBACK_WINDOW_DAYS = 180;
/** Lookups are made in batches of this many payments, and a run makes at most MOST_LOOKUPS (the rest wait for the next run). */
export const LOOKUP_BATCH = 100;
export const MOST_LOOKUPS = 5_000;

/**
 * Reconciliation with the processors' reports (contracts §19, §23): a run
 * fetches a merchant's report of what the processor released over inclusive
 * local dates (the merchant's country's), its amounts in the report's
 * currency or the account's local one, and matches it line by line with our
 * records and disputes. Before comparing, it reads again at the processor
 * every payment of ours whose refunds or holds the report shows and our
 * records do not (a refund made in the processor's panel whose notification
 * was lost is recorded then, as a notification would have). A report whose
 * amounts cannot be read fails the run, with the reason. A discrepancy
 * never moves money: it is shown (the API, the dashboard), counted in
 * /metrics and announced as the event `reconciliation.discrepancy` once,
 * however often its window is run; running a window again replaces the
 * discrepancies of earlier runs within it. The account's findings since its
 * last run (PROCESSOR_OVER_REFUND, announced when found) join the run's.
 */
@Injectable()
export class ReconciliationRunsService {
  private readonly logger = new Logger('Reconciliation');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly registry: GatewayRegistry,
    private readonly runs: ReconciliationRunRepository,
    private readonly ledger: PayinLedgerService,
    private readonly merchants: MerchantService,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly events: EventRecorder,
    private readonly disputes: DisputesService,
    private readonly notices: ProcessorNotices,
  ) {}

  /**
   * Reconciles a merchant's report of [from, to] (inclusive local dates) now; the run is kept whatever happens
   * (COMPLETED or FAILED). Without a provider, the first registered with reports (as the operators' command).
   */
  async run(merchantId: MerchantId, from: LocalDate, to: LocalDate, provider?: string): Promise<ReconciliationRun> {
    provider ??= this.registry.processorReports()[0]?.provider ?? 'none';
    const lookups = this.registry.processorLookups().find((l) => l.provider === provider);
    if (lookups) return this.lookUp(merchantId, lookups, to);
    const reports = this.registry.processorReports().find((r) => r.provider === provider);
    if (!reports) throw new Error(`no reports of ${provider}`);
    const merchant = await this.merchants.findById(merchantId);
    const country = merchant && (await this.catalog.findCountryById(merchant.countryId));
    if (!merchant || !country) throw new Error('no merchant has that id');
    const runId = crypto.randomUUID();
    await this.runs.start(this.unitOfWork.outside, {
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
      const localCurrency = country.currency as Currency;
      const lines = await reports.releaseLines(merchantId, window.from, new Date(window.to.getTime() - 1000), localCurrency);
      const references = lines.flatMap((line) => (line.externalReference ? [line.externalReference] : []));
      const compare = async () => {
        const records = await this.ledger.reconciliationRecords(merchantId, provider, references, window.from, window.to);
        const charges = records.filter((r) => r.transactionType === 'PAYIN').map((r) => r.transactionId);
        const disputes = (await this.disputes.ofCharges(merchantId, charges)).map((d) => {
          const p = d.snapshot();
          return { disputeId: p.disputeId, chargeId: p.chargeId, status: p.status, amount: p.amount, currency: p.currency };
        });
        return { records, disputes, result: reconcile(lines, records, window, disputes) };
      };
      let compared = await compare();
      const reread = await this.readAgain(merchantId, provider, compared);
      if (reread > 0) compared = await compare();
      const { result } = compared;
      await this.unitOfWork.run(async (tx) => {
        const findings = await this.ledger.unreportedFindings(tx, merchantId, provider);
        const discrepancies = [...result.discrepancies, ...findings.map(asDiscrepancy)];
        await this.runs.complete(tx, runId, { ...result, discrepancies }, new Date());
        await this.ledger.markFindingsReported(
          tx,
          findings.map((f) => f.findingId),
          runId,
        );
        await this.runs.supersede(tx, runId, merchantId, provider, from, to);
        // Findings were announced when found; the rest once, whatever the number of runs of their window.
        const fresh = await this.runs.firstAnnounced(
          tx,
          merchantId,
          provider,
          result.discrepancies.filter((d) => d.kind !== 'PROCESSOR_OVER_REFUND'),
          new Date(),
        );
        if (fresh.length > 0)
          await this.events.recordAll(
            tx,
            fresh.map((d) => ({
              type: 'reconciliation.discrepancy' as const,
              businessId: merchant.businessId,
              merchantId,
              subjectId: runId,
              object: { runId, merchantId, provider, ...presentDiscrepancy(d) },
            })),
          );
        this.unitOfWork.afterCommit(tx, () => {
          metrics.reconciliationRuns.inc({ provider, result: 'completed' });
          for (const d of fresh) metrics.reconciliationDiscrepancies.inc({ provider, kind: d.kind });
        });
      });
      this.logger.log(`${provider} ${merchantId} ${from}..${to}: ${result.matched} matched, ${result.discrepancies.length} discrepancies`);
    } catch (error) {
      await this.runs.fail(this.unitOfWork.outside, runId, (error as Error).message, new Date());
      metrics.reconciliationRuns.inc({ provider, result: 'failed' });
      this.logger.warn(`${provider} ${merchantId} ${from}..${to} failed: ${(error as Error).message}`);
    }
    return (await this.runs.find(this.unitOfWork.outside, runId))!;
  }

  /**
   * The safety net of a processor whose reports cannot be fetched (contract §28; dLocal): on `day`
   * (the merchant's country's), each of the merchant's collections there approved within the
   * chargeback window and not looked up yet that day is read at the processor, in batches — in
   * MERCHANT flow too: no balance money moves for them, but the payment's refundedAmount must still
   * be what the processor refunded (§28) — and
   * each case of those collections we know and the processor has not closed is read again; what
   * they tell is applied exactly as their notifications would have been (a refund made in the
   * processor's dashboard recorded once, a chargeback's new status followed). The run lists how many
   * payments were looked up (`matched`) and the account's findings; a processor that cannot be read
   * fails the run, and what was not looked up is looked up by the next one.
   */
  private async lookUp(merchantId: MerchantId, lookups: ProcessorLookups, day: LocalDate): Promise<ReconciliationRun> {
    const { provider } = lookups;
    const merchant = await this.merchants.findById(merchantId);
    const country = merchant && (await this.catalog.findCountryById(merchant.countryId));
    if (!merchant || !country) throw new Error('no merchant has that id');
    const runId = crypto.randomUUID();
    await this.runs.start(this.unitOfWork.outside, {
      runId,
      businessId: merchant.businessId,
      merchantId,
      provider,
      from: day,
      to: day,
      createdAt: new Date(),
    });
    const startOfDay = startOfLocalDay(day, country.timeZone);
    const since = new Date(startOfDay.getTime() - CHARGEBACK_WINDOW_DAYS * 86_400_000);
    let looked = 0;
    try {
      while (looked < MOST_LOOKUPS) {
        const due = await this.ledger.dueForLookup(merchantId, provider, since, day, Math.min(LOOKUP_BATCH, MOST_LOOKUPS - looked));
        if (due.length === 0) break;
        for (const charge of due) {
          const notice = await lookups.payment(merchantId, charge.transactionId);
          if (notice.kind === 'CHARGE') await this.notices.apply(merchantId, provider, notice);
        }
        const cases = (
          await this.disputes.ofCharges(
            merchantId,
            due.map((c) => c.transactionId),
          )
        ).filter((d) => d.snapshot().processor === provider && d.status !== 'WON' && d.status !== 'LOST');
        for (const known of cases) {
          const notice = await lookups.dispute(merchantId, known.snapshot().processorReference);
          if (notice.kind === 'DISPUTE') await this.notices.apply(merchantId, provider, notice);
        }
        await this.ledger.markLookedUp(
          due.map((c) => c.transactionId),
          day,
        );
        looked += due.length;
      }
      await this.unitOfWork.run(async (tx) => {
        const findings = await this.ledger.unreportedFindings(tx, merchantId, provider);
        await this.runs.complete(
          tx,
          runId,
          { matched: looked, ignored: 0, totals: null, discrepancies: findings.map(asDiscrepancy) },
          new Date(),
        );
        await this.ledger.markFindingsReported(
          tx,
          findings.map((f) => f.findingId),
          runId,
        );
        await this.runs.supersede(tx, runId, merchantId, provider, day, day);
        this.unitOfWork.afterCommit(tx, () => metrics.reconciliationRuns.inc({ provider, result: 'completed' }));
      });
      this.logger.log(`${provider} ${merchantId} ${day}: ${looked} payment(s) looked up`);
    } catch (error) {
      await this.runs.fail(this.unitOfWork.outside, runId, `after ${looked} payment(s) looked up: ${(error as Error).message}`, new Date());
      metrics.reconciliationRuns.inc({ provider, result: 'failed' });
      this.logger.warn(`${provider} ${merchantId} ${day} failed: ${(error as Error).message}`);
    }
    return (await this.runs.find(this.unitOfWork.outside, runId))!;
  }

  /**
   * Reads again at the processor the payments of ours that the report says
   * were refunded or held where our records do not show it (or that it
   * names and we do not hold as collected), and applies what it says as a
   * notification would: processor-side refunds found at the latest here.
   * How many were read.
   */
  private async readAgain(
    merchantId: MerchantId,
    provider: string,
    compared: {
      records: readonly { transactionId: string; transactionType: string }[];
      disputes: readonly DisputeRecord[];
      result: Reconciliation;
    },
  ): Promise<number> {
    const charges = new Set(compared.records.filter((r) => r.transactionType === 'PAYIN').map((r) => r.transactionId));
    const chargeOfDispute = new Map(compared.disputes.map((d) => [d.disputeId, d.chargeId]));
    const stale = new Set<string>();
    for (const d of compared.result.discrepancies) {
      const id = d.kind === 'DISPUTE_MISMATCH' ? chargeOfDispute.get(d.externalId) : d.kind === 'MISSING_HERE' ? d.externalId : undefined;
      // MISSING_HERE names our attempt (the line's EXTERNAL_REFERENCE) when the report carries one: ours or not, the adapter checks.
      if (id && (charges.has(id) || UUID.test(id))) stale.add(id.toLowerCase());
    }
    const gateway = this.registry.get(provider);
    // A processor that cannot be read after the fact changes its collections only through us: nothing to read again.
    if (!readsPayments(gateway)) return 0;
    let read = 0;
    for (const payinId of [...stale].slice(0, MOST_REREAD)) {
      try {
        const notice = await gateway.readPayment(merchantId, payinId);
        if (notice.kind === 'CHARGE') await this.notices.apply(merchantId, provider, notice);
        read += 1;
      } catch (error) {
        this.logger.warn(`${provider} payment of ${payinId} could not be read again: ${(error as Error).message}`);
      }
    }
    return read;
  }

  /**
   * The daily run of every merchant of the country connected to a processor
   * with reports: every day since the account's last COMPLETED window, at
   * most CATCH_UP_DAYS back and never before it was connected, through
   * yesterday (the country's), in one window. A day that failed is so
   * retried the next day; a completed window is not run again.
   */
  async runDaily(countryIso3: string, today: LocalDate): Promise<void> {
    const country = await this.catalog.findCountryByIso3(countryIso3);
    if (!country) return;
    const yesterday = addDays(today, -1);
    // Processors checked by lookups: once a day, today's (a day already completed is not run again).
    for (const lookups of this.registry.processorLookups())
      for (const account of await lookups.accounts()) {
        const merchant = await this.merchants.findById(account.merchantId as MerchantId);
        if (!merchant || merchant.deletedAt !== null || merchant.countryId !== country.countryId) continue;
        const last = await this.runs.lastCompletedDay(this.unitOfWork.outside, account.merchantId, lookups.provider);
        if (last === null || last < today) await this.run(account.merchantId as MerchantId, today, today, lookups.provider);
      }
    for (const reports of this.registry.processorReports())
      for (const account of await reports.accounts()) {
        const merchant = await this.merchants.findById(account.merchantId as MerchantId);
        if (!merchant || merchant.deletedAt !== null || merchant.countryId !== country.countryId) continue;
        const last = await this.runs.lastCompletedDay(this.unitOfWork.outside, account.merchantId, reports.provider);
        const from = latest([last ? addDays(last, 1) : localDateOf(account.connectedAt, country.timeZone), addDays(today, -CATCH_UP_DAYS)]);
        if (from <= yesterday) await this.run(account.merchantId as MerchantId, from, yesterday, reports.provider);
      }
  }

  async get(caller: Caller, runId: string): Promise<ReconciliationRun> {
    const run = await this.runs.find(this.unitOfWork.outside, runId);
    if (!run || !scopeCovers(tenantScope(caller), run)) throw new DomainError('RECONCILIATION_RUN_NOT_FOUND');
    return run;
  }

  async list(caller: Caller, merchantId: MerchantId | undefined, page: PageRequest): Promise<Page<ReconciliationRun>> {
    return this.runs.list(this.unitOfWork.outside, await this.access.scopeOf(caller, merchantId), page);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The latest of ISO local dates. */
function latest(days: readonly LocalDate[]): LocalDate {
  return [...days].sort().at(-1)!;
}

/** A processor finding as a discrepancy of the run that shows it. */
function asDiscrepancy(finding: ProcessorFinding): ReturnType<typeof reconcile>['discrepancies'][number] {
  const side = (s: FindingSide | null): Side | null => s && { ...s };
  return { kind: finding.kind, externalId: finding.externalId, ours: side(finding.ours), theirs: side(finding.theirs) };
}

/**
 * A side in wire amounts (major units of its currency): `amount` is the
 * gross (`gross` says so again, as §23 names it); the report's other money
 * columns where it has them.
 */
function presentSide(side: Side | null) {
  if (!side) return null;
  const wire = (minor: number | null | undefined) =>
    minor === undefined || minor === null ? null : side.currency ? wireAmount(minor, side.currency) : minor;
  return {
    externalId: side.externalId,
    amount: wire(side.amount),
    gross: wire(side.amount),
    fee: wire(side.fee),
    financingFee: wire(side.financingFee),
    taxes: wire(side.taxes),
    netCredit: wire(side.netCredit),
    netDebit: wire(side.netDebit),
    date: side.date?.toISOString() ?? null,
  };
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
    supersededBy: run.supersededBy,
    totals: run.totals && presentTotals(run.totals),
    discrepancies: run.discrepancies.map(presentDiscrepancy),
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/** A run's totals in wire amounts of the report's currency. */
function presentTotals(totals: ReportTotals) {
  const { currency } = totals;
  const wire = (minor: number) => (currency ? wireAmount(minor, currency) : minor);
  return {
    currency,
    gross: wire(totals.gross),
    fee: wire(totals.fee),
    financingFee: wire(totals.financingFee),
    taxes: wire(totals.taxes),
    netCredit: wire(totals.netCredit),
    netDebit: wire(totals.netDebit),
  };
}
