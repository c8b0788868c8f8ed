import { Injectable } from '@nestjs/common';
import {
  Caller,
  Currency,
  MerchantId,
  narrowScope,
  Page,
  PageRequest,
  PaymentIntentId,
  tenantScope,
  Transaction,
  UnitOfWork,
  wireAmount,
} from '@pcs/kernel';
import { ReadReplica } from '@pcs/database';
import { Payin, PayinProps } from '../domain/payin';
import { PayinFilters, PayinLedgerQueries, PayinSummaryRows } from './payin-ledger.queries';
import { PayinRepository } from './payin.repository';
import type { ProcessorFinding } from '../domain/processor-finding';
import { ProcessorFindingRepository } from './processor-finding.repository';

/**
 * The payments context's ledger as other contexts and the APIs see it: one
 * payment's records found by id or by the processor's id (processor notices,
 * disputes, outcome e-mails), the page of operation 36 with its exact total,
 * the overview's figures, and what a reconciliation run compares and shows.
 * The payments services write the records through PayinRepository, with
 * their intents; nothing outside this context touches the payin table.
 */
@Injectable()
export class PayinLedgerService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly payins: PayinRepository,
    private readonly queries: PayinLedgerQueries,
    private readonly replica: ReadReplica,
    private readonly findings: ProcessorFindingRepository,
  ) {}

  get(tx: Transaction, transactionId: string, lock = false): Promise<Payin | null> {
    return this.payins.get(tx, transactionId, lock);
  }

  findByExternalId(tx: Transaction, gateway: string, externalId: string): Promise<Payin | null> {
    return this.payins.findByExternalId(tx, gateway, externalId);
  }

  /** The intent's latest approved collection: what a refund goes back through. */
  latestApprovedCharge(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    return this.payins.latestApprovedCharge(tx, paymentIntentId);
  }

  /** The findings of an account no reconciliation run has shown yet. */
  unreportedFindings(tx: Transaction, merchantId: string, gateway: string): Promise<ProcessorFinding[]> {
    return this.findings.unreported(tx, merchantId, gateway);
  }

  /** These findings are shown by run `runId` from now on. */
  markFindingsReported(tx: Transaction, findingIds: readonly string[], runId: string): Promise<void> {
    return this.findings.markReported(tx, findingIds, runId);
  }

  /** The intent's latest collection attempt, whatever its state (the method the payer chose last). */
  latestCharge(tx: Transaction, paymentIntentId: PaymentIntentId): Promise<Payin | null> {
    return this.payins.latestCharge(tx, paymentIntentId);
  }

  /** What a processor's report of [from, to) is reconciled with (see PayinRepository.reconciliationRecords). */
  async reconciliationRecords(
    merchantId: MerchantId,
    gateway: string,
    references: readonly string[],
    from: Date,
    to: Date,
  ): Promise<Readonly<PayinProps>[]> {
    return (await this.payins.reconciliationRecords(this.unitOfWork.outside, merchantId, gateway, references, from, to)).map((p) =>
      p.snapshot(),
    );
  }

  /**
   * The next of the merchant's collections at `gateway` to look up at the processor
   * (contract §28: dLocal's daily safety net): approved since `since`, not looked up on `day` (a
   * local date) yet, the longest unchecked first, at most `limit`.
   */
  async dueForLookup(merchantId: MerchantId, gateway: string, since: Date, day: string, limit: number): Promise<Readonly<PayinProps>[]> {
    return (await this.payins.dueForLookup(this.unitOfWork.outside, merchantId, gateway, since, day, limit)).map((p) => p.snapshot());
  }

  /** These collections were looked up at their processor on `day` (a local date). */
  markLookedUp(transactionIds: readonly string[], day: string): Promise<void> {
    return this.payins.markLookedUp(this.unitOfWork.outside, transactionIds, day);
  }

  /** Operation 36. */
  async list(caller: Caller, filters: PayinFilters, page: PageRequest): Promise<Page<Readonly<PayinProps>>> {
    const { merchantId, ...within } = filters;
    // A merchant's credentials naming another merchant see nothing.
    const scope = narrowScope(tenantScope(caller), merchantId);
    if (!scope) return { items: [], page: page.page, limit: page.limit, total: 0 };
    // A read no write follows: the read replica's, within its staleness bound (docs/scale-out.md).
    const found = await this.replica.read((tx) => this.queries.page(tx, scope, within, page));
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
      ? await this.replica.read((tx) => this.queries.summary(tx, scope, from, until))
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
