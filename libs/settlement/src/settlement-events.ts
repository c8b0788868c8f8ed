import { Injectable } from '@nestjs/common';
import { EventRecorder } from '@pcs/events';
import { Currency, MerchantId, Transaction, UnitOfWork, wireAmount } from '@pcs/kernel';
import { metrics } from '@pcs/observability';
import type { LocalDate } from './domain/business-calendar';
import { Payout } from './domain/payout';
import { Bank, SettlementAccount } from './domain/settlement-account';
import { SettlementAccountRepository } from './settlement.repository';

/**
 * The one place where settlement records its events (contract §19, §24), each
 * in the transaction of the change it announces: a payout's transitions, a
 * settlement account's change, money that became available. What each event
 * carries is written here too.
 */
@Injectable()
export class SettlementEvents {
  constructor(
    private readonly events: EventRecorder,
    private readonly unitOfWork: UnitOfWork,
    private readonly accounts: SettlementAccountRepository,
  ) {}

  /** `payout.*`: the transitions the payout went through since it was last saved (none: nothing recorded). */
  async payoutChanged(tx: Transaction, payout: Payout): Promise<void> {
    const types = payout.pullEvents();
    if (types.length === 0) return;
    const p = payout.snapshot();
    const object = payoutRepresentation(payout, await this.accounts.bank(tx, p.destination.bankId));
    // Transitions of one transaction (created, then in transit) a millisecond apart: listed in the order they happened.
    const at = Date.now();
    await this.events.recordAll(
      tx,
      types.map((type, i) => ({
        type,
        businessId: p.businessId,
        merchantId: p.merchantId,
        subjectId: p.payoutId,
        object,
        at: new Date(at + i),
      })),
    );
    this.unitOfWork.afterCommit(tx, () => types.forEach((type) => metrics.payouts.inc({ status: type.slice('payout.'.length) })));
  }

  /** `settlement_account.updated`: the account now and the one it replaced. */
  async accountUpdated(tx: Transaction, businessId: string, account: SettlementAccount, previous: SettlementAccount | null): Promise<void> {
    await this.events.record(tx, {
      type: 'settlement_account.updated',
      businessId,
      merchantId: account.merchantId,
      subjectId: account.settlementAccountId,
      object: settlementAccountEvent(account, previous),
    });
  }

  /** `balance.available`: what of a merchant's balance in a currency became available on `day` (minor units in, wire amount out). */
  async balanceAvailable(
    tx: Transaction,
    businessId: string,
    entry: { merchantId: MerchantId; currency: Currency; amount: number },
    day: LocalDate,
  ): Promise<void> {
    await this.events.record(tx, {
      type: 'balance.available',
      businessId,
      merchantId: entry.merchantId,
      subjectId: entry.merchantId,
      object: { merchantId: entry.merchantId, currency: entry.currency, amount: wireAmount(entry.amount, entry.currency), date: day },
    });
  }
}

/** A payout as the API, its events and the operator's commands show it (wire amounts). */
export function payoutRepresentation(payout: Payout, bank: Bank | null) {
  const p = payout.snapshot();
  return {
    payoutId: p.payoutId,
    merchantId: p.merchantId,
    currency: p.currency,
    amount: wireAmount(p.amount, p.currency),
    status: p.status,
    settlementBank: {
      settlementAccountId: p.destination.settlementAccountId,
      bankId: p.destination.bankId,
      bankName: bank?.name ?? null,
      accountNumber: p.destination.accountNumber,
      accountType: p.destination.accountType,
      currency: p.currency,
    },
    arrivalDate: p.arrivalDate,
    bankReference: p.bankReference,
    failureReason: p.failureReason,
    transactionCount: p.transactionCount,
    createdAt: p.createdAt.toISOString(),
    paidAt: p.paidAt?.toISOString() ?? null,
  };
}

/** The last four characters of an account number or key: enough to recognise it, too little to use it. */
export function accountEnding(accountNumber: string): string {
  return accountNumber.slice(-4);
}

/** The object of a `settlement_account.updated` event: the account now and before, their numbers shown by their endings only. */
export function settlementAccountEvent(account: SettlementAccount, previous: SettlementAccount | null) {
  const shown = (a: SettlementAccount) => ({
    bankId: a.bank.bankId,
    bankName: a.bank.name,
    accountType: a.accountType,
    accountNumberEnding: accountEnding(a.accountNumber),
  });
  return {
    settlementAccountId: account.settlementAccountId,
    merchantId: account.merchantId,
    currency: account.currency,
    ...shown(account),
    holdUntil: account.holdUntil?.toISOString() ?? null,
    previous: previous ? shown(previous) : null,
    updatedAt: account.updatedAt.toISOString(),
  };
}
