import { asBusinessId, asMerchantId, Currency } from '@pcs/kernel';
import type { BalanceTransaction, BalanceTransactionType } from '../domain/balance-transaction';
import { Payout, PayoutOrigin, PayoutStatus } from '../domain/payout';
import type { AccountType, Bank, SettlementAccount } from '../domain/settlement-account';
import { BalanceTransactionOrmEntity } from './balance-transaction.orm-entity';
import { BankOrmEntity } from './bank.orm-entity';
import { PayoutOrmEntity } from './payout.orm-entity';
import { SettlementAccountOrmEntity } from './settlement-account.orm-entity';

export function bankFromRow(row: BankOrmEntity): Bank {
  return { ...row, accountLengths: row.accountLengths ?? null };
}

export function settlementAccountFromRow(row: SettlementAccountOrmEntity, bank: Bank): SettlementAccount {
  return {
    settlementAccountId: row.settlementAccountId,
    merchantId: row.merchantId,
    businessId: row.businessId,
    currency: row.currency as Currency,
    bank,
    accountNumber: row.accountNumber,
    accountType: row.accountType as AccountType,
    holderDocument: row.holderDocument,
    holdUntil: row.holdUntil ? new Date(row.holdUntil) : null,
    confirmedBy: row.confirmedBy,
    confirmedAt: row.confirmedAt ? new Date(row.confirmedAt) : null,
    payoutWaitingSince: row.payoutWaitingSince,
    returnedPayoutId: row.returnedPayoutId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function balanceTransactionFromRow(row: BalanceTransactionOrmEntity): BalanceTransaction {
  return {
    ...row,
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    currency: row.currency as Currency,
    type: row.type as BalanceTransactionType,
  };
}

export function payoutFromRow(row: PayoutOrmEntity): Payout {
  return Payout.restore({
    payoutId: row.payoutId,
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    currency: row.currency as Currency,
    amount: row.amount,
    status: row.status as PayoutStatus,
    rail: row.rail,
    origin: row.origin as PayoutOrigin,
    destination: {
      settlementAccountId: row.settlementAccountId,
      bankId: row.bankId,
      accountNumber: row.accountNumber,
      accountType: row.accountType as AccountType,
      holderDocument: row.holderDocument,
    },
    transactionCount: row.transactionCount,
    arrivalDate: row.arrivalDate,
    bankReference: row.bankReference,
    failureReason: row.failureReason,
    exportedAt: row.exportedAt,
    batchId: row.batchId,
    returnedAt: row.returnedAt,
    scheduledFor: row.scheduledFor,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    paidAt: row.paidAt,
  });
}

export function payoutToRow(payout: Payout): PayoutOrmEntity {
  const { destination, ...p } = payout.snapshot();
  return Object.assign(new PayoutOrmEntity(), { ...p, ...destination });
}
