import { ReadReplica } from '@pcs/database';
import { Injectable } from '@nestjs/common';
import { Caller, Currency, MerchantId, Page, PageRequest, TenantScope, Transaction, UnitOfWork } from '@pcs/kernel';
import { MerchantAccess } from '@pcs/merchants';
import * as crypto from 'node:crypto';
import { Balance, BalanceTransaction } from './domain/balance-transaction';
import { BalanceRepository, BalanceTransactionFilters, PayoutRepository, PricingRepository } from './settlement.repository';

/** The money side of a dispute: whose, in what, against which payment, at which processor. */
export interface DisputeMoney {
  readonly disputeId: string;
  /** The disputed payment (its approved PAYIN's transactionId): the debit draws on its pending net first. */
  readonly chargeId: string;
  readonly businessId: string;
  readonly merchantId: string;
  readonly currency: Currency;
  readonly processor: string;
  /** The processor's reference of the case, for the transactions' descriptions. */
  readonly reference: string;
}

export interface BalanceTransactionQuery extends BalanceTransactionFilters {
  readonly merchantId?: MerchantId;
}

/**
 * Balances and their transactions (contract §19). Every movement of money is
 * a balance transaction, written in the transaction that moves it; balances
 * are read from figures the database keeps equal to the transactions' sum
 * (never by summing millions of rows).
 */
@Injectable()
export class BalancesService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly access: MerchantAccess,
    private readonly balances: BalanceRepository,
    private readonly payouts: PayoutRepository,
    private readonly replica: ReadReplica,
    private readonly prices: PricingRepository,
  ) {}

  /** The merchant's balance in each currency it has (or may have) money in. */
  async balance(caller: Caller, merchantId: MerchantId): Promise<{ merchantId: MerchantId; balances: Balance[] }> {
    const merchant = await this.access.loadVisible(caller, merchantId);
    const tx = this.unitOfWork.outside;
    const [figures, underWay] = await Promise.all([this.balances.figures(tx, merchant.id), this.payouts.underWay(tx, merchant.id)]);
    const currencies = new Set<Currency>([...merchant.snapshot().currencies, ...figures.map((f) => f.currency), ...underWay.keys()]);
    const balances = [...currencies].sort().map((currency) => {
      const figure = figures.find((f) => f.currency === currency);
      return {
        currency,
        pending: figure?.pending ?? 0,
        available: figure?.available ?? 0,
        inTransit: underWay.get(currency) ?? 0,
        upcoming: figure?.upcoming ?? [],
      };
    });
    return { merchantId: merchant.id, balances };
  }

  /**
   * The caller's balance transactions (one merchant's when named, or the
   * merchant caller's), newest first: read on the read replica within its
   * staleness bound (docs/scale-out.md), like the CSV and the ledger's payout ids.
   * The balance itself, which a payout is decided from, reads the primary.
   */
  async list(caller: Caller, query: BalanceTransactionQuery, page: PageRequest): Promise<Page<BalanceTransaction>> {
    const scope = await this.scopeOf(caller, query.merchantId);
    return this.replica.read((tx) => this.balances.list(tx, scope, query, page));
  }

  /** Every balance transaction matching, in batches (the CSV answer). */
  async batches(caller: Caller, query: BalanceTransactionQuery): Promise<AsyncGenerator<BalanceTransaction[]>> {
    const scope = await this.scopeOf(caller, query.merchantId);
    return this.replica.stream((tx) => this.balances.batches(tx, scope, query));
  }

  /** The payouts that swept these payins' and refunds' transactions (the ledger's payoutRequestId), by transactionId. */
  payoutsOfSources(sourceIds: readonly string[]): Promise<Map<string, string>> {
    return this.replica.read((tx) => this.balances.payoutsOfSources(tx, sourceIds));
  }

  /**
   * The operator's correction (`balance:adjust`): an ADJUSTMENT of a signed
   * amount (minor units), available at once. Corrections are new entries;
   * nothing written is ever changed.
   */
  async adjust(
    merchantId: MerchantId,
    businessId: string,
    currency: Currency,
    amount: number,
    reason: string,
  ): Promise<BalanceTransaction> {
    if (!Number.isSafeInteger(amount) || amount === 0) throw new Error('an adjustment moves a non-zero whole number of minor units');
    const id = crypto.randomUUID();
    const [recorded] = await this.balances.record(this.unitOfWork.outside, [
      {
        balanceTransactionId: id,
        businessId,
        merchantId,
        currency,
        type: 'ADJUSTMENT',
        amount,
        fee: 0,
        availableOn: null,
        sourceId: id,
        payoutId: null,
        description: reason.slice(0, 512),
      },
    ]);
    return recorded;
  }

  /**
   * Brings a dispute's debit to `target` (minor units, contract §24): what
   * its CHARGEBACK and CHARGEBACK_REVERSAL transactions net so far is read,
   * and only the difference is booked — a debit drawn on the payment's
   * pending net first, or a credit giving back first what the dispute drew
   * from it — so a repeated notice books nothing. The dispute is locked by
   * the caller. The difference booked (positive: debited).
   */
  async debitDispute(tx: Transaction, dispute: DisputeMoney & { readonly target: number; readonly why: string }): Promise<number> {
    if (!Number.isSafeInteger(dispute.target) || dispute.target < 0) throw new Error('a dispute debits a whole, non-negative amount');
    const debited = -(await this.balances.netOf(tx, dispute.disputeId, ['CHARGEBACK', 'CHARGEBACK_REVERSAL']));
    const difference = dispute.target - debited;
    if (difference === 0) return 0;
    await this.balances.move(tx, {
      businessId: dispute.businessId,
      merchantId: dispute.merchantId,
      currency: dispute.currency,
      type: difference > 0 ? 'CHARGEBACK' : 'CHARGEBACK_REVERSAL',
      amount: -difference,
      sourceId: dispute.disputeId,
      chargeId: dispute.chargeId,
      description: `chargeback ${dispute.reference} ${dispute.why}`,
    });
    return difference;
  }

  /**
   * The processor's fee for a dispute (the catalog's `disputeFee` of its
   * processor and currency; contract §24): a DISPUTE_FEE of −fee, available
   * at once, once per dispute, never given back. Nothing when the fee is 0.
   */
  async chargeDisputeFee(tx: Transaction, dispute: DisputeMoney): Promise<boolean> {
    const fee = await this.prices.disputeFee(tx, dispute.processor, dispute.currency);
    if (fee <= 0) return false;
    const written = await this.balances.recordOnce(tx, [
      {
        balanceTransactionId: crypto.randomUUID(),
        businessId: dispute.businessId,
        merchantId: dispute.merchantId,
        currency: dispute.currency,
        type: 'DISPUTE_FEE',
        amount: 0,
        fee,
        availableOn: null,
        sourceId: dispute.disputeId,
        payoutId: null,
        description: `${dispute.processor} dispute fee, chargeback ${dispute.reference}`,
      },
    ]);
    return written.length === 1;
  }

  /** What a read may see: the named merchant (visible to the caller), the merchant caller's own, or the whole business. */
  scopeOf(caller: Caller, merchantId: MerchantId | undefined): Promise<TenantScope> {
    return this.access.scopeOf(caller, merchantId);
  }
}
