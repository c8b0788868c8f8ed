import type { ProcessorPrice } from '@pcs/catalog';
import { Currency, MerchantId, Page, PageRequest, TenantScope } from '@pcs/kernel';
import type { EntityManager } from 'typeorm';
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
  abstract pricesOf(manager: EntityManager, merchantId: MerchantId): Promise<Map<string, StoredPrice>>;
  abstract put(manager: EntityManager, merchantId: MerchantId, countryProcessorId: string, price: StoredPrice, now: Date): Promise<void>;
}

export interface NewSettlementAccount {
  readonly businessId: string;
  readonly merchantId: MerchantId;
  readonly currency: Currency;
  readonly bankId: string;
  readonly accountNumber: string;
  readonly accountType: AccountType;
  readonly holderDocument: string | null;
}

/** The bank catalog and merchants' settlement accounts (port). */
export abstract class SettlementAccountRepository {
  abstract banks(manager: EntityManager, country?: string): Promise<Bank[]>;
  abstract bank(manager: EntityManager, bankId: string): Promise<Bank | null>;
  /** Sets the merchant's account in the currency (its id kept when it replaces one). */
  abstract put(manager: EntityManager, account: NewSettlementAccount, now: Date): Promise<SettlementAccount>;
  abstract ofMerchants(manager: EntityManager, merchantIds: readonly MerchantId[]): Promise<SettlementAccount[]>;
  abstract find(manager: EntityManager, merchantId: MerchantId, currency: Currency): Promise<SettlementAccount | null>;
  /** The accounts at the banks of a country (a country's merchants hold their accounts there). */
  abstract ofCountry(manager: EntityManager, country: string): Promise<SettlementAccount[]>;
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
  abstract figures(manager: EntityManager, merchantId: MerchantId): Promise<BalanceFigures[]>;
  /** The available balance in a currency, as of the database's now (the transaction's start). */
  abstract available(manager: EntityManager, merchantId: MerchantId, currency: Currency): Promise<number>;
  abstract record(manager: EntityManager, transactions: readonly NewBalanceTransaction[]): Promise<BalanceTransaction[]>;
  /** Like record, but a transaction whose source already moved money of its type is left out (nothing written twice); what was written. */
  abstract recordOnce(manager: EntityManager, transactions: readonly NewBalanceTransaction[]): Promise<BalanceTransaction[]>;
  /** Marks every available transaction no payout swept yet as the payout's, in one statement; how many. */
  abstract sweep(manager: EntityManager, merchantId: MerchantId, currency: Currency, payoutId: string): Promise<number>;
  abstract list(
    manager: EntityManager,
    scope: TenantScope,
    filters: BalanceTransactionFilters,
    page: PageRequest,
  ): Promise<Page<BalanceTransaction>>;
  /** Every transaction matching, newest first, in batches (the CSV answer). */
  abstract batches(manager: EntityManager, scope: TenantScope, filters: BalanceTransactionFilters): AsyncGenerator<BalanceTransaction[]>;
  /** The payout that swept each of these sources' transactions of a type (PAYIN rows' payoutRequestId). */
  abstract payoutsOfSources(manager: EntityManager, sourceIds: readonly string[]): Promise<Map<string, string>>;
  /** Money that became available in (after, until], per merchant and currency (pending figures whose time came). */
  abstract becameAvailable(
    manager: EntityManager,
    after: Date,
    until: Date,
  ): Promise<{ merchantId: MerchantId; currency: Currency; amount: number }[]>;
  /** Folds figures available before `before` into each balance's always-available figure (fewer rows to sum). */
  abstract compact(manager: EntityManager, before: Date): Promise<void>;
}

export interface PayoutFilters {
  readonly status?: PayoutStatus;
  readonly currency?: Currency;
  readonly dateFrom?: Date;
  readonly dateTo?: Date;
}

/** Payouts (port). */
export abstract class PayoutRepository {
  abstract insert(manager: EntityManager, payout: Payout): Promise<void>;
  abstract save(manager: EntityManager, payout: Payout): Promise<void>;
  abstract find(manager: EntityManager, payoutId: string, lock?: boolean): Promise<Payout | null>;
  abstract list(manager: EntityManager, scope: TenantScope, filters: PayoutFilters, page: PageRequest): Promise<Page<Payout>>;
  /** Per currency, what the merchant's payouts PENDING or IN_TRANSIT carry. */
  abstract underWay(manager: EntityManager, merchantId: MerchantId): Promise<Map<Currency, number>>;
  /**
   * Serialises the payouts of one merchant and currency until the
   * transaction ends (never taken by approvals or refunds, which only add
   * balance transactions).
   */
  abstract holdBalance(manager: EntityManager, merchantId: MerchantId, currency: Currency): Promise<void>;
  /** Whether the merchant's scheduled payout in this currency for this local day was made. */
  abstract scheduledExists(manager: EntityManager, merchantId: MerchantId, currency: Currency, day: string): Promise<boolean>;
  /** A bank's payouts waiting in its batch file (IN_TRANSIT, not exported yet), locked, oldest first. */
  abstract awaitingExport(manager: EntityManager, bankId: string, limit: number): Promise<Payout[]>;
}
