import type { CatalogService } from '@pcs/catalog';
import type { DisputesService } from '@pcs/disputes';
import type { EventRecorder } from '@pcs/events';
import type { GatewayNotice, GatewayRegistry, ProcessorLookups, ProcessorReports, ReportLine } from '@pcs/gateways';
import { asMerchantId, Currency, Transaction } from '@pcs/kernel';
import type { MerchantAccess, MerchantService } from '@pcs/merchants';
import type { PayinLedgerService, PayinProps, ProcessorFinding } from '@pcs/payments';
import type { Discrepancy, Reconciliation } from './domain/reconciliation';
import type { ReconciliationRun } from './domain/reconciliation-run';
import type { ProcessorNotices } from './processor-notices';
import { ReconciliationRunRepository } from './reconciliation-runs.repository';
import { CHARGEBACK_WINDOW_DAYS, LOOKUP_BATCH, ReconciliationRunsService } from './reconciliation-runs.service';
import { MemoryUnitOfWork } from '@pcs/testing/unit-of-work';

/**
 * Reconciliation runs (contracts §19, §23, §28) on their ports in memory: a report compared with our
 * records and its discrepancies announced once; a report that cannot be read fails the run; dLocal's
 * lookups (no report to fetch) read each payment once a day, in batches, and the cases we know, and
 * apply what they tell as notifications; the daily run picks each account's days. Over PostgreSQL
 * against the stand-ins: test/reconciliation*, test/dlocal-reconciliation and the oracle.
 */
const MERCHANT = asMerchantId('00000000-0000-4000-8000-0000000000a1');
const URUGUAY = { countryId: 'ury', iso3: 'URY', timeZone: 'America/Montevideo', currency: 'UYU' };

class MemoryRuns extends ReconciliationRunRepository {
  readonly runs = new Map<string, ReconciliationRun>();
  readonly announced = new Set<string>();
  start(
    _tx: Transaction,
    run: Pick<ReconciliationRun, 'runId' | 'businessId' | 'merchantId' | 'provider' | 'from' | 'to' | 'createdAt'>,
  ): Promise<void> {
    this.runs.set(run.runId, {
      ...run,
      status: 'RUNNING',
      matched: 0,
      ignored: 0,
      failureReason: null,
      discrepancies: [],
      totals: null,
      supersededBy: null,
      finishedAt: null,
    });
    return Promise.resolve();
  }
  complete(_tx: Transaction, runId: string, result: Reconciliation, at: Date): Promise<void> {
    const run = this.runs.get(runId)!;
    this.runs.set(runId, {
      ...run,
      status: 'COMPLETED',
      matched: result.matched,
      ignored: result.ignored,
      discrepancies: result.discrepancies,
      totals: result.totals,
      finishedAt: at,
    });
    return Promise.resolve();
  }
  fail(_tx: Transaction, runId: string, reason: string, at: Date): Promise<void> {
    this.runs.set(runId, { ...this.runs.get(runId)!, status: 'FAILED', failureReason: reason, finishedAt: at });
    return Promise.resolve();
  }
  find(_tx: Transaction, runId: string): Promise<ReconciliationRun | null> {
    return Promise.resolve(this.runs.get(runId) ?? null);
  }
  lastCompletedDay(_tx: Transaction, merchantId: string, provider: string): Promise<string | null> {
    const days = [...this.runs.values()]
      .filter((r) => r.merchantId === merchantId && r.provider === provider && r.status === 'COMPLETED')
      .map((r) => r.to);
    return Promise.resolve(days.sort().at(-1) ?? null);
  }
  supersede(): Promise<void> {
    return Promise.resolve();
  }
  firstAnnounced(_tx: Transaction, _m: string, _p: string, discrepancies: readonly Discrepancy[]): Promise<Discrepancy[]> {
    return Promise.resolve(
      discrepancies.filter((d) => {
        const key = `${d.kind} ${d.externalId}`;
        if (this.announced.has(key)) return false;
        this.announced.add(key);
        return true;
      }),
    );
  }
  list = (): Promise<never> => Promise.reject(new Error('not used'));
}

/** A collection of ours at `gateway`, approved, of `amount` minor units released now. */
const collection = (transactionId: string, amount: number, gateway = 'MERCADO_PAGO') =>
  ({
    transactionId,
    transactionType: 'PAYIN',
    status: 'APPROVED',
    merchantId: MERCHANT,
    gateway,
    currency: Currency.UYU,
    amount,
    receivedAmount: amount,
    externalId: `mp-${transactionId}`,
    liquidationDate: new Date(),
    processorFeeAmount: null,
    processorFinancingFeeAmount: null,
    paymentIntentId: `pi-${transactionId}`,
  }) as unknown as Readonly<PayinProps>;

function runsWith(
  options: {
    lines?: () => Promise<ReportLine[]>;
    records?: Readonly<PayinProps>[];
    due?: Readonly<PayinProps>[];
    payment?: (payinId: string) => Promise<GatewayNotice>;
    cases?: { reference: string; chargeId: string; status: string }[];
  } = {},
) {
  const runs = new MemoryRuns();
  const reports = {
    provider: 'MERCADO_PAGO',
    accounts: () => Promise.resolve([{ merchantId: MERCHANT, connectedAt: new Date('2026-11-01T12:00:00Z') }]),
    releaseLines: options.lines ?? (() => Promise.resolve([])),
  } as unknown as ProcessorReports;
  const looked: string[] = [];
  const casesRead: string[] = [];
  const lookups = {
    provider: 'DLOCAL',
    accounts: () => Promise.resolve([{ merchantId: MERCHANT, connectedAt: new Date('2026-11-01T12:00:00Z') }]),
    payment: (_m: string, payinId: string) => {
      looked.push(payinId);
      return options.payment
        ? options.payment(payinId)
        : Promise.resolve({
            kind: 'CHARGE',
            payinId,
            event: { gateway: 'DLOCAL', eventId: payinId, reference: payinId, outcome: 'APPROVED' },
          });
    },
    dispute: (_m: string, reference: string) => {
      casesRead.push(reference);
      return Promise.resolve({ kind: 'DISPUTE', dispute: { reference } } as unknown as GatewayNotice);
    },
  } as unknown as ProcessorLookups;
  const registry = {
    processorReports: () => [reports],
    processorLookups: () => [lookups],
    get: () => ({ readPayment: () => Promise.resolve({ kind: 'UNKNOWN' }) }),
  } as unknown as GatewayRegistry;
  // The ledger's lookups: each day's due ones, once (markLookedUp records the day).
  const checked = new Map<string, string>();
  const ledger = {
    reconciliationRecords: () => Promise.resolve(options.records ?? []),
    unreportedFindings: () => Promise.resolve([] as ProcessorFinding[]),
    markFindingsReported: () => Promise.resolve(),
    dueForLookup: (_m: string, _g: string, _since: Date, day: string, limit: number) =>
      Promise.resolve((options.due ?? []).filter((c) => (checked.get(c.transactionId) ?? '') < day).slice(0, limit)),
    markLookedUp: (ids: readonly string[], day: string) => {
      ids.forEach((id) => checked.set(id, day));
      return Promise.resolve();
    },
  } as unknown as PayinLedgerService;
  const merchants = {
    findById: () => Promise.resolve({ merchantId: MERCHANT, businessId: 'b', countryId: 'ury', deletedAt: null }),
  } as unknown as MerchantService;
  const catalog = {
    findCountryById: () => Promise.resolve(URUGUAY),
    findCountryByIso3: () => Promise.resolve(URUGUAY),
  } as unknown as CatalogService;
  const events: string[] = [];
  const recorder = {
    recordAll: (_tx: Transaction, recorded: { type: string; object: { kind: string } }[]) => {
      events.push(...recorded.map((e) => `${e.type} ${e.object.kind}`));
      return Promise.resolve([]);
    },
  } as unknown as EventRecorder;
  const disputes = {
    ofCharges: (_m: string, ids: readonly string[]) =>
      Promise.resolve(
        (options.cases ?? [])
          .filter((c) => ids.includes(c.chargeId))
          .map((c) => ({
            status: c.status,
            snapshot: () => ({
              processor: 'DLOCAL',
              processorReference: c.reference,
              chargeId: c.chargeId,
              status: c.status,
              disputeId: c.reference,
              amount: 1,
              currency: Currency.UYU,
            }),
          })),
      ),
  } as unknown as DisputesService;
  const applied: string[] = [];
  const notices = {
    apply: (_m: string, _g: string, notice: GatewayNotice) => {
      applied.push(
        notice.kind === 'CHARGE' ? `payment ${notice.payinId}` : `case ${notice.kind === 'DISPUTE' ? notice.dispute.reference : ''}`,
      );
      return Promise.resolve('applied');
    },
  } as unknown as ProcessorNotices;
  const service = new ReconciliationRunsService(
    new MemoryUnitOfWork(),
    registry,
    runs,
    ledger,
    merchants,
    {} as MerchantAccess,
    catalog,
    recorder,
    disputes,
    notices,
  );
  return { service, runs, looked, casesRead, applied, events };
}

const line = (externalReference: string, gross: number): ReportLine => ({
  recordType: 'release',
  description: 'payment',
  sourceId: `mp-${externalReference}`,
  externalReference,
  date: new Date(),
  currency: Currency.UYU,
  gross,
  fee: null,
  financingFee: null,
  taxes: null,
  netCredit: gross,
  netDebit: null,
});

describe('ReconciliationRunsService (runs, on their ports in memory)', () => {
  it('compares a report with our records, and announces each discrepancy once however often its window runs', async () => {
    const { service, events } = runsWith({
      records: [collection('t-1', 100_00), collection('t-2', 50_00)],
      lines: () => Promise.resolve([line('t-1', 100_00), line('t-2', 49_99)]),
    });
    const run = await service.run(MERCHANT, '2026-11-27', '2026-11-27');
    expect(run).toMatchObject({
      status: 'COMPLETED',
      provider: 'MERCADO_PAGO',
      matched: 1,
      discrepancies: [expect.objectContaining({ kind: 'AMOUNT_MISMATCH', externalId: 't-2' })],
    });
    await service.run(MERCHANT, '2026-11-27', '2026-11-27');
    expect(events).toEqual(['reconciliation.discrepancy AMOUNT_MISMATCH']);
  });

  it('fails a run whose report cannot be read, with the reason, never turning it into discrepancies', async () => {
    const { service } = runsWith({ lines: () => Promise.reject(new Error('line 3, GROSS_AMOUNT: 12.345 is not an amount in UYU')) });
    expect(await service.run(MERCHANT, '2026-11-27', '2026-11-27')).toMatchObject({
      status: 'FAILED',
      discrepancies: [],
      failureReason: expect.stringContaining('GROSS_AMOUNT'),
    });
  });

  it('looks each dLocal payment up once a day in batches, reads the open cases we know, and applies what they tell (contract §28)', async () => {
    const due = Array.from({ length: LOOKUP_BATCH + 5 }, (_, i) => collection(`d-${i}`, 10_00, 'DLOCAL'));
    const { service, looked, casesRead, applied } = runsWith({
      due,
      cases: [
        { reference: 'CHAR-1', chargeId: 'd-3', status: 'NEEDS_RESPONSE' },
        { reference: 'CHAR-2', chargeId: 'd-4', status: 'WON' },
      ],
    });
    const run = await service.run(MERCHANT, '2026-11-27', '2026-11-27', 'DLOCAL');
    expect(run).toMatchObject({ status: 'COMPLETED', provider: 'DLOCAL', matched: LOOKUP_BATCH + 5, totals: null });
    expect(new Set(looked).size).toBe(LOOKUP_BATCH + 5);
    expect(casesRead).toEqual(['CHAR-1']);
    expect(applied.filter((a) => a.startsWith('case'))).toEqual(['case CHAR-1']);
    // The same day again: nothing is looked up twice; the next day, everything within the window again.
    expect((await service.run(MERCHANT, '2026-11-27', '2026-11-27', 'DLOCAL')).matched).toBe(0);
    expect((await service.run(MERCHANT, '2026-11-28', '2026-11-28', 'DLOCAL')).matched).toBe(LOOKUP_BATCH + 5);
    expect(CHARGEBACK_WINDOW_DAYS).toBe(180);
  });

  it('fails a lookups run dLocal does not answer, saying how far it got; the payments not looked up wait for the next run', async () => {
    const due = [collection('d-1', 10_00, 'DLOCAL'), collection('d-2', 10_00, 'DLOCAL')];
    let down = true;
    const { service } = runsWith({
      due,
      payment: (payinId) =>
        down && payinId === 'd-1' ? Promise.reject(new Error('dLocal get_payment: answered 500')) : Promise.resolve({ kind: 'UNKNOWN' }),
    });
    expect(await service.run(MERCHANT, '2026-11-27', '2026-11-27', 'DLOCAL')).toMatchObject({
      status: 'FAILED',
      failureReason: 'after 0 payment(s) looked up: dLocal get_payment: answered 500',
    });
    down = false;
    expect(await service.run(MERCHANT, '2026-11-27', '2026-11-27', 'DLOCAL')).toMatchObject({ status: 'COMPLETED', matched: 2 });
  });

  it('runs each account’s days once: Mercado Pago’s since its last completed window through yesterday, dLocal’s lookups today', async () => {
    const { service, runs } = runsWith();
    await service.runDaily('URY', '2026-11-27');
    await service.runDaily('URY', '2026-11-27');
    const made = [...runs.runs.values()].map((r) => [r.provider, r.from, r.to]).sort();
    expect(made).toEqual([
      ['DLOCAL', '2026-11-27', '2026-11-27'],
      ['MERCADO_PAGO', '2026-11-01', '2026-11-26'],
    ]);
  });
});
