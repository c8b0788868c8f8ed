import type { ProcessorPrice } from '@pcs/catalog';
import { Currency, MerchantId, Page, PageRequest, TenantScope, Transaction } from '@pcs/kernel';
import type { BalanceTransaction, BalanceTransactionType } from './domain/balance-transaction';
import type { Payout, PayoutStatus } from './domain/payout';
import type { AccountType, Bank, SettlementAccount } from './domain/settlement-account';

/** A merchant's own price for a country processor, as the operator set it. */
export interface StoredPrice extends ProcessorPrice {
  readonly settlementDelayDays: number;
}

/** Where merchants' own prices are kept (port). */
export abstract class PricingRepository {
  /** The merchant's own prices, by country processor id. */
  abstract pricesOf(tx: Transaction, merchantId: MerchantId): Promise<Map<string, StoredPrice>>;
  abstract put(tx: Transaction, merchantId: MerchantId, countryProcessorId: string, price: StoredPrice, now: Date): Promise<void>;
  /** What a dispute costs at a processor in a currency (the catalog's disputeFee, minor units; none: 0). */
  abstract disputeFee(tx: Transaction, processor: string, currency: Currency): Promise<number>;
  abstract putDisputeFee(tx: Transaction, processor: string, currency: Currency, amount: number, now: Date): Promise<void>;
}

export interface NewSettlementAccount {
  readonly businessId: string;
  readonly merchantId: MerchantId;
  readonly currency: Currency;
  readonly bankId: string;
  readonly accountNumber: string;
  readonly accountType: AccountType;
  readonly holderDocument: string | null;
  /** Until when payouts to it wait (null: at once). */
  readonly holdUntil: Date | null;
}

/** The bank catalog and merchants' settlement accounts (port). */
export abstract class SettlementAccountRepository {
  abstract banks(tx: Transaction, country?: string): Promise<Bank[]>;
  abstract bank(tx: Transaction, bankId: string): Promise<Bank | null>;
  /** Sets the merchant's account in the currency (its id kept when it replaces one; a confirmation of the old one is forgotten, a payout waiting is not). */
  abstract put(tx: Transaction, account: NewSettlementAccount, now: Date): Promise<SettlementAccount>;
  /** Serialises the changes of a merchant's accounts until the transaction ends (which one is its first). */
  abstract holdAccounts(tx: Transaction, merchantId: MerchantId): Promise<void>;
  /**
   * Ends an account's hold, or the stop a bank's return put on it: confirmed by a
   * dashboard admin (contract §24). The account, or null when there is none.
   */
  abstract confirm(
    tx: Transaction,
    merchantId: MerchantId,
    currency: Currency,
    confirmedBy: string,
    now: Date,
  ): Promise<SettlementAccount | null>;
  /** Stops payouts to an account a bank gave `payoutId` back from, until it is changed or confirmed. */
  abstract noteReturned(tx: Transaction, settlementAccountId: string, payoutId: string, now: Date): Promise<void>;
  /** Notes (or forgets, with null) the first scheduled payout an account's hold made wait. */
  abstract notePayoutWaiting(tx: Transaction, settlementAccountId: string, since: string | null): Promise<void>;
  abstract ofMerchants(tx: Transaction, merchantIds: readonly MerchantId[]): Promise<SettlementAccount[]>;
  abstract find(tx: Transaction, merchantId: MerchantId, currency: Currency): Promise<SettlementAccount | null>;
  /** The accounts at the banks of a country (a country's merchants hold their accounts there). */
  abstract ofCountry(tx: Transaction, country: string): Promise<SettlementAccount[]>;
}

export interface NewBalanceTransaction {
  readonly balanceTransactionId: string;
  readonly businessId: string;
  readonly merchantId: string;
  readonly currency: Currency;
  readonly type: BalanceTransactionType;
  readonly amount: number;
  readonly fee: number;
  /** Null: available at once (the moment it is written). */
  readonly availableOn: Date | null;
  readonly sourceId: string;
  readonly payoutId: string | null;
  readonly description: string | null;
}

export interface BalanceTransactionFilters {
  readonly currency?: Currency;
  readonly type?: BalanceTransactionType;
  readonly payoutId?: string;
  /** Inclusive bounds on createdAt. */
  readonly dateFrom?: Date;
  readonly dateTo?: Date;
}

/** What a payout's claim found and took (contract §24). */
export interface BalanceClaim {
  /** The available balance when the payout was decided, minor units. */
  readonly available: number;
  /** Whether the payout may be made (it was, and swept `swept` transactions). */
  readonly claimed: boolean;
  readonly swept: number;
}

/** A signed movement of a collected payment's money (a refund's, a dispute's), drawn on its pending net first. */
export interface PaymentMovement {
  readonly businessId: string;
  readonly merchantId: string;
  readonly currency: Currency;
  readonly type: BalanceTransactionType;
  /** Minor units: negative debits, positive credits. */
  readonly amount: number;
  readonly sourceId: string;
  /** The payment (its approved PAYIN's transactionId) whose pending net the movement draws on; null: at once. */
  readonly chargeId: string | null;
  readonly description: string;
}

/** A balance read from the maintained figures, minor units. */
export interface BalanceFigures {
  readonly currency: Currency;
  readonly pending: number;
  readonly available: number;
  readonly upcoming: readonly { readonly availableOn: Date; readonly amount: number }[];
}

/** Balance transactions and their maintained figures (port). */
export abstract class BalanceRepository {
  /** Pending and available per currency, as of the database's now, from the figures. */
  abstract figures(tx: Transaction, merchantId: MerchantId): Promise<BalanceFigures[]>;
  /**
   * A payout's claim on the available balance, in one statement under the
   * caller's balance lock (contract §24): the available figure, and — when
   * the payout may be made (`amount` ≤ available, or, for the whole balance,
   * available ≥ max(`minimum`, 1)) — the sweep of what it covers: every
   * available transaction no payout holds, or for an amount the oldest ones
   * whose whole net it covers. A transaction committed meanwhile is counted
   * and swept, or neither.
   */
  abstract claim(
    tx: Transaction,
    payout: { merchantId: MerchantId; currency: Currency; payoutId: string; amount: number | null; minimum: number },
  ): Promise<BalanceClaim>;
  /** A failed, canceled or returned payout's transactions, free again for the next payout (not its own PAYOUT and PAYOUT_FAILURE); how many. */
  abstract release(tx: Transaction, payoutId: string): Promise<number>;
  abstract record(tx: Transaction, transactions: readonly NewBalanceTransaction[]): Promise<BalanceTransaction[]>;
  /**
   * A movement of a payment's money (contract §24), signed: a debit takes
   * the payment's pending net first (booked at its availableOn), the rest at
   * once; a credit gives back first what this source drew from it. One or two
   * rows of the source and type; how many.
   */
  abstract move(tx: Transaction, movement: PaymentMovement): Promise<number>;
  /** The net of a source's transactions of these types (minor units, signed). */
  abstract netOf(tx: Transaction, sourceId: string, types: readonly BalanceTransactionType[]): Promise<number>;
  /** Like record, but a transaction whose source already moved money of its type is left out (nothing written twice); what was written. */
  abstract recordOnce(tx: Transaction, transactions: readonly NewBalanceTransaction[]): Promise<BalanceTransaction[]>;
  abstract list(
    tx: Transaction,
    scope: TenantScope,
    filters: BalanceTransactionFilters,
    page: PageRequest,
  ): Promise<Page<BalanceTransaction>>;
  /** Every transaction matching, newest first, in batches (the CSV answer). */
  abstract batches(tx: Transaction, scope: TenantScope, filters: BalanceTransactionFilters): AsyncGenerator<BalanceTransaction[]>;
  /** The payout that swept each of these sources' transactions of a type (PAYIN rows' payoutRequestId). */
  abstract payoutsOfSources(tx: Transaction, sourceIds: readonly string[]): Promise<Map<string, string>>;
  /** Money that became available in (after, until], per merchant and currency (pending figures whose time came). */
  abstract becameAvailable(
    tx: Transaction,
    after: Date,
    until: Date,
  ): Promise<{ merchantId: MerchantId; currency: Currency; amount: number }[]>;
  /** Folds figures available before `before` into each balance's always-available figure (fewer rows to sum). */
  abstract compact(tx: Transaction, before: Date): Promise<void>;
}

export interface PayoutFilters {
  readonly status?: PayoutStatus;
  readonly currency?: Currency;
  readonly dateFrom?: Date;
  readonly dateTo?: Date;
}

/** Payouts (port). */
export abstract class PayoutRepository {
  abstract insert(tx: Transaction, payout: Payout): Promise<void>;
  abstract save(tx: Transaction, payout: Payout): Promise<void>;
  abstract find(tx: Transaction, payoutId: string, lock?: boolean): Promise<Payout | null>;
  abstract list(tx: Transaction, scope: TenantScope, filters: PayoutFilters, page: PageRequest): Promise<Page<Payout>>;
  /** Per currency, what the merchant's payouts PENDING or IN_TRANSIT carry. */
  abstract underWay(tx: Transaction, merchantId: MerchantId): Promise<Map<Currency, number>>;
  /**
   * Serialises the payouts of one merchant and currency until the
   * transaction ends (never taken by approvals or refunds, which only add
   * balance transactions).
   */
  abstract holdBalance(tx: Transaction, merchantId: MerchantId, currency: Currency): Promise<void>;
  /** Whether the merchant's scheduled payout in this currency for this local day was made. */
  abstract scheduledExists(tx: Transaction, merchantId: MerchantId, currency: Currency, day: string): Promise<boolean>;
  /** A bank's payouts waiting in its batch file (IN_TRANSIT, in no batch yet), of one business when named, locked, oldest first. */
  abstract awaitingExport(tx: Transaction, bankId: string, limit: number, businessId?: string): Promise<Payout[]>;
  /** The payouts of a batch, in the order it lists them. */
  abstract ofBatch(tx: Transaction, batchId: string): Promise<Payout[]>;
}

/** A bank file's batch as recorded (contract §24): its payouts' files, written again identically from here. */
export interface PayoutBatchRecord {
  readonly batchId: string;
  readonly businessId: string;
  readonly bankId: string;
  /** The business's batches in order (the CNAB file's NSA). */
  readonly sequence: number;
  readonly payoutCount: number;
  /** Per currency, minor units. */
  readonly totals: readonly { readonly currency: Currency; readonly amount: number }[];
  readonly csv: string;
  readonly csvSha256: string;
  readonly cnab240: string | null;
  readonly cnab240Sha256: string | null;
  readonly createdAt: Date;
  readonly writtenAt: Date | null;
}

/** The account a business's CNAB 240 remittances debit (`payouts:debtor-account:set`). */
export interface DebtorAccount {
  readonly businessId: string;
  readonly country: 'BRA';
  readonly bankId: string;
  /** CNPJ or CPF digits. */
  readonly document: string;
  readonly name: string;
  readonly agreement: string;
  readonly branch: string;
  readonly branchDigit: string;
  readonly account: string;
  readonly accountDigit: string;
  readonly updatedAt: Date;
}

/** Bank files' batches and the debtor accounts they name (port). */
export abstract class PayoutBatchRepository {
  /** The business's next batch number, its batches serialised until the transaction ends. */
  abstract nextSequence(tx: Transaction, businessId: string): Promise<number>;
  abstract insert(tx: Transaction, batch: PayoutBatchRecord): Promise<void>;
  abstract find(tx: Transaction, batchId: string): Promise<PayoutBatchRecord | null>;
  abstract markWritten(tx: Transaction, batchId: string, at: Date): Promise<void>;
  abstract debtor(tx: Transaction, businessId: string, country: 'BRA'): Promise<DebtorAccount | null>;
  abstract putDebtor(tx: Transaction, account: DebtorAccount): Promise<void>;
}
