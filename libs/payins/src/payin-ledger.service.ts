import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Caller, Currency, MerchantId, narrowScope, Page, PageRequest, PaymentIntentId, tenantScope, wireAmount } from '@pcs/kernel';
import { DataSource, EntityManager } from 'typeorm';
import { ReadReplica, type Guard, type JoinedRead } from '@pcs/database';
import type { NewEvent } from '@pcs/events';
import { Payin, PayinProps, PayinState } from './domain/payin';
import { PayinFilters, PayinLedgerQueries, PayinSummaryRows } from './payin-ledger.queries';
import { PayinRepository, RefundRecords } from './payin.repository';
import type { ProcessorFinding } from './domain/processor-finding';
import { ProcessorFindingRepository } from './processor-finding.repository';

/**
 * The payins ledger, the context's one public service: its records are
 * written by payment intents (inside their transactions, hence the manager
 * first) and read here (operation 36). Nothing outside this context touches
 * the payin table.
 */
@Injectable()
export class PayinLedgerService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly payins: PayinRepository,
    private readonly queries: PayinLedgerQueries,
    private readonly replica: ReadReplica,
    private readonly findings: ProcessorFindingRepository,
  ) {}

  insert(manager: EntityManager, payin: Payin): Promise<void> {
    return this.payins.insert(manager, payin);
  }

  save(manager: EntityManager, payin: Payin): Promise<void> {
    return this.payins.save(manager, payin);
  }

  /** Saves the record only if it is still in the state it was read in (`as`); false, writing nothing, otherwise. */
  saveIfStill(manager: EntityManager, payin: Payin, as: PayinState): Promise<boolean> {
    return this.payins.saveIfStill(manager, payin, as);
  }

  /** A new record as a guard and its events, for another context's statement to run with its own change. */
  insertGuard(manager: EntityManager, payin: Payin): { guard: Guard; events: NewEvent[] } {
    return this.payins.insertGuard(manager, payin);
  }

  /** The records a refund of the intent decides on (its approved charge, open refunds, an operation's record), as a read joined to the intent's. */
  refundRecords(manager: EntityManager, paymentIntentId: PaymentIntentId, operationId: string | null): JoinedRead<RefundRecords> {
    return this.payins.refundRecords(manager, paymentIntentId, operationId);
  }

  get(manager: EntityManager, transactionId: string, lock = false): Promise<Payin | null> {
    return this.payins.get(manager, transactionId, lock);
  }

  findByExternalId(manager: EntityManager, gateway: string, externalId: string): Promise<Payin | null> {
    return this.payins.findByExternalId(manager, gateway, externalId);
  }

  /** The intent's collection attempts still open (PENDING or SCHEDULED), locked. */
  openAttempts(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin[]> {
    return this.payins.openAttempts(manager, paymentIntentId);
  }

  /** The intent's off-session charge still waiting on the gateway's answer, if any. */
  openOffSessionCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    return this.payins.openOffSessionCharge(manager, paymentIntentId);
  }

  /** The intent's checkout still open at a gateway page, if any. */
  openCheckoutSession(manager: EntityManager, paymentIntentId: PaymentIntentId, now: Date): Promise<Payin | null> {
    return this.payins.openCheckoutSession(manager, paymentIntentId, now);
  }

  /** The intent's latest approved collection: what a refund goes back through. */
  latestApprovedCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    return this.payins.latestApprovedCharge(manager, paymentIntentId);
  }

  /** Every refund record of the intent (ours and the processor's), oldest first. */
  refundsOf(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin[]> {
    return this.payins.refundsOf(manager, paymentIntentId);
  }

  /** Keeps what a processor did beyond our records (contract §23), once: true when it is new (and so to be announced). */
  recordFinding(manager: EntityManager, finding: ProcessorFinding): Promise<boolean> {
    return this.findings.record(manager, finding);
  }

  /** The findings of an account no reconciliation run has shown yet. */
  unreportedFindings(manager: EntityManager, merchantId: string, gateway: string): Promise<ProcessorFinding[]> {
    return this.findings.unreported(manager, merchantId, gateway);
  }

  /** These findings are shown by run `runId` from now on. */
  markFindingsReported(manager: EntityManager, findingIds: readonly string[], runId: string): Promise<void> {
    return this.findings.markReported(manager, findingIds, runId);
  }

  /** The intent's latest collection attempt, whatever its state (the method the payer chose last). */
  latestCharge(manager: EntityManager, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    return this.payins.latestCharge(manager, paymentIntentId);
  }

  /** Payins waiting on a gateway whose time to ask it has come (crash recovery, lost callbacks). */
  dueForReconciliation(now: Date, limit: number): Promise<Payin[]> {
    return this.payins.dueForReconciliation(this.dataSource.manager, now, limit);
  }

  /** Attempts whose payer's session at a gateway page ended before `now`. */
  expiredSessions(now: Date, limit: number): Promise<Payin[]> {
    return this.payins.expiredSessions(this.dataSource.manager, now, limit);
  }

  /** What a processor's report of [from, to) is reconciled with (see PayinRepository.reconciliationRecords). */
  async reconciliationRecords(
    merchantId: MerchantId,
    gateway: string,
    references: readonly string[],
    from: Date,
    to: Date,
  ): Promise<Readonly<PayinProps>[]> {
    return (await this.payins.reconciliationRecords(this.dataSource.manager, merchantId, gateway, references, from, to)).map((p) =>
      p.snapshot(),
    );
  }

  /** Operation 36. */
  async list(caller: Caller, filters: PayinFilters, page: PageRequest): Promise<Page<Readonly<PayinProps>>> {
    const { merchantId, ...within } = filters;
    // A merchant's credentials naming another merchant see nothing.
    const scope = narrowScope(tenantScope(caller), merchantId);
    if (!scope) return { items: [], page: page.page, limit: page.limit, total: 0 };
    // A read no write follows: the read replica's, within its staleness bound (docs/scale-out.md).
    const found = await this.replica.read((manager) => this.queries.page(manager, scope, within, page));
    return { ...found, items: found.items.map((p) => p.snapshot()) };
  }

  /**
   * The ledger's figures over whole UTC days (the operations dashboard's
   * overview): per day, per payment method and in total, per currency, in
   * wire amounts; approval rate = approved / (approved + rejected) attempts.
   */
  async summary(caller: Caller, merchantId: MerchantId | undefined, from: Date, until: Date): Promise<PayinSummary> {
    const scope = narrowScope(tenantScope(caller), merchantId);
    const rows: PayinSummaryRows = scope
      ? await this.replica.read((manager) => this.queries.summary(manager, scope, from, until))
      : { days: [], paymentMethods: [], refunds: [] };
    const wire = <T extends { currency: Currency; collected: number }>(row: T) => ({
      ...row,
      collected: wireAmount(row.collected, row.currency),
    });
    const totals = new Map<Currency, { currency: Currency; collected: number; refunded: number; approved: number; rejected: number }>();
    for (const day of rows.days) {
      const total = totals.get(day.currency) ?? { currency: day.currency, collected: 0, refunded: 0, approved: 0, rejected: 0 };
      totals.set(day.currency, {
        ...total,
        collected: total.collected + day.collected,
        approved: total.approved + day.approved,
        rejected: total.rejected + day.rejected,
      });
    }
    for (const refund of rows.refunds) {
      const total = totals.get(refund.currency) ?? { currency: refund.currency, collected: 0, refunded: 0, approved: 0, rejected: 0 };
      totals.set(refund.currency, { ...total, refunded: refund.refunded });
    }
    return {
      days: rows.days.map(wire),
      paymentMethods: rows.paymentMethods.map(wire),
      totals: [...totals.values()]
        .sort((a, b) => a.currency.localeCompare(b.currency))
        .map((t) => ({
          ...t,
          collected: wireAmount(t.collected, t.currency),
          refunded: wireAmount(t.refunded, t.currency),
          approvalRate: t.approved + t.rejected === 0 ? null : Math.round((t.approved / (t.approved + t.rejected)) * 10_000) / 10_000,
        })),
    };
  }
}

export interface PayinSummary {
  readonly days: readonly { day: string; currency: Currency; collected: number; approved: number; rejected: number }[];
  readonly paymentMethods: readonly {
    paymentMethodName: string;
    currency: Currency;
    collected: number;
    approved: number;
    rejected: number;
  }[];
  readonly totals: readonly {
    currency: Currency;
    collected: number;
    refunded: number;
    approved: number;
    rejected: number;
    approvalRate: number | null;
  }[];
}
