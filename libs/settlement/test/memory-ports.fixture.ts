/**
 * The settlement context's ports in memory, for its services' unit specs (as payments has): what a
 * database would hold, with the ports' rules where a service depends on them — a payout's claim
 * sweeps the available transactions no payout holds (the oldest within an amount), a released
 * payout frees them, a source moves money of a type once when asked so. Balance figures are
 * sums of the transactions (pending until their availableOn). The same rules on PostgreSQL,
 * with real concurrency and the draws on a payment's pending net, are the integration and
 * end-to-end specs'.
 */
import { RuntimeSettings } from '@pcs/config';
import { asBusinessId, asMerchantId, Currency, MerchantId, Transaction } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { MEMORY_TX, MemoryUnitOfWork } from '@pcs/testing/unit-of-work';
import type { ProcessorPrice } from '@pcs/catalog';
import type { BalanceTransaction, BalanceTransactionType } from '../src/domain/balance-transaction';
import { Payout } from '../src/domain/payout';
import type { Bank, SettlementAccount } from '../src/domain/settlement-account';
import type { NotCarried } from '../src/rails/payout-rail';
import { PayoutNotices } from '../src/payout-notices';
import {
  BalanceClaim,
  BalanceFigures,
  BalanceRepository,
  DebtorAccount,
  NewBalanceTransaction,
  NewSettlementAccount,
  PaymentMovement,
  PayoutBatchRecord,
  PayoutBatchRepository,
  PayoutRepository,
  PricingRepository,
  SettlementAccountRepository,
  StoredPrice,
} from '../src/settlement.repository';

export const TX = MEMORY_TX;
export const NOW = new Date('2026-11-27T15:00:00Z');
export const BUSINESS_ID = asBusinessId('2c1d4e5f-0000-4000-8000-00000000b001');
export const MERCHANT_ID = asMerchantId('2c1d4e5f-0000-4000-8000-00000000a001');

/** A port method the service under test never calls: a call fails the spec. */
export const unused = (): Promise<never> => Promise.reject(new Error('a port method this service should not call'));

export { MemoryUnitOfWork };

export const BROU: Bank = { bankId: 'bank-brou', country: 'URY', code: '001', ispb: null, name: 'BROU', accountLengths: [9, 14] };
export const ITAU_BR: Bank = {
  bankId: 'bank-itau',
  country: 'BRA',
  code: '341',
  ispb: '60701190',
  name: 'Itaú Unibanco',
  accountLengths: null,
};

/** A settlement account as the repository would hand it out. */
export function anAccount(overrides: Partial<SettlementAccount> = {}): SettlementAccount {
  return {
    settlementAccountId: crypto.randomUUID(),
    merchantId: MERCHANT_ID,
    businessId: BUSINESS_ID,
    currency: Currency.UYU,
    bank: BROU,
    accountNumber: '00123456700001',
    accountType: 'SAVINGS',
    holderDocument: null,
    holdUntil: null,
    confirmedBy: null,
    confirmedAt: null,
    payoutWaitingSince: null,
    returnedPayoutId: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

type Row = BalanceTransaction & { readonly seq: number };

/** Balance transactions, and the figures as their sums. */
export class MemoryBalances extends BalanceRepository {
  readonly rows: Row[] = [];
  now = NOW;
  private seq = 0;

  /** Money in a merchant's balance (a payin's net), available at `availableOn` (default: already). */
  credit(net: number, options: { currency?: Currency; availableOn?: Date; type?: BalanceTransactionType; sourceId?: string } = {}): Row {
    const [row] = this.write([
      {
        balanceTransactionId: crypto.randomUUID(),
        businessId: BUSINESS_ID,
        merchantId: MERCHANT_ID,
        currency: options.currency ?? Currency.UYU,
        type: options.type ?? 'PAYIN',
        amount: net,
        fee: 0,
        availableOn: options.availableOn ?? new Date(this.now.getTime() - 1000),
        sourceId: options.sourceId ?? crypto.randomUUID(),
        payoutId: null,
        description: null,
      },
    ]);
    return row;
  }
  of(sourceId: string): Row[] {
    return this.rows.filter((r) => r.sourceId === sourceId);
  }
  private write(transactions: readonly NewBalanceTransaction[]): Row[] {
    const written = transactions.map((t) => ({
      ...t,
      businessId: asBusinessId(t.businessId),
      merchantId: asMerchantId(t.merchantId),
      financingFee: 0,
      net: t.amount - t.fee,
      availableOn: t.availableOn ?? this.now,
      createdAt: this.now,
      seq: this.seq++,
    }));
    this.rows.push(...written);
    return written;
  }
  private available(merchantId: string, currency: Currency): Row[] {
    return this.rows.filter((r) => r.merchantId === merchantId && r.currency === currency && r.availableOn <= this.now);
  }

  figures(_tx: Transaction, merchantId: MerchantId): Promise<BalanceFigures[]> {
    const currencies = [...new Set(this.rows.filter((r) => r.merchantId === merchantId).map((r) => r.currency))];
    return Promise.resolve(
      currencies.map((currency) => {
        const own = this.rows.filter((r) => r.merchantId === merchantId && r.currency === currency);
        const sum = (rows: Row[]) => rows.reduce((total, r) => total + r.net, 0);
        return {
          currency,
          pending: sum(own.filter((r) => r.availableOn > this.now)),
          available: sum(own.filter((r) => r.availableOn <= this.now)),
          upcoming: [],
        };
      }),
    );
  }
  claim(
    _tx: Transaction,
    payout: { merchantId: MerchantId; currency: Currency; payoutId: string; amount: number | null; minimum: number },
  ): Promise<BalanceClaim> {
    const rows = this.available(payout.merchantId, payout.currency);
    const available = rows.reduce((total, r) => total + r.net, 0);
    const free = rows.filter((r) => r.payoutId === null).sort((a, b) => a.seq - b.seq);
    let swept: Row[];
    if (payout.amount === null) {
      if (available < Math.max(payout.minimum, 1)) return Promise.resolve({ available, claimed: false, swept: 0 });
      swept = free;
    } else {
      if (payout.amount > available) return Promise.resolve({ available, claimed: false, swept: 0 });
      let running = 0;
      swept = [];
      for (const row of free) {
        if (running + row.net > payout.amount) break;
        running += row.net;
        swept.push(row);
      }
    }
    for (const row of swept) this.rows[this.rows.indexOf(row)] = { ...row, payoutId: payout.payoutId };
    return Promise.resolve({ available, claimed: true, swept: swept.length });
  }
  release(_tx: Transaction, payoutId: string): Promise<number> {
    let released = 0;
    this.rows.forEach((row, i) => {
      if (row.payoutId === payoutId && row.sourceId !== payoutId) {
        this.rows[i] = { ...row, payoutId: null };
        released += 1;
      }
    });
    return Promise.resolve(released);
  }
  record(_tx: Transaction, transactions: readonly NewBalanceTransaction[]): Promise<BalanceTransaction[]> {
    return Promise.resolve(this.write(transactions));
  }
  move(_tx: Transaction, movement: PaymentMovement): Promise<number> {
    this.write([{ ...movement, balanceTransactionId: crypto.randomUUID(), fee: 0, availableOn: null, payoutId: null }]);
    return Promise.resolve(1);
  }
  netOf(_tx: Transaction, sourceId: string, types: readonly BalanceTransactionType[]): Promise<number> {
    return Promise.resolve(
      this.of(sourceId)
        .filter((r) => types.includes(r.type))
        .reduce((total, r) => total + r.net, 0),
    );
  }
  recordOnce(_tx: Transaction, transactions: readonly NewBalanceTransaction[]): Promise<BalanceTransaction[]> {
    return Promise.resolve(this.write(transactions.filter((t) => !this.rows.some((r) => r.sourceId === t.sourceId && r.type === t.type))));
  }
  list = unused;
  // eslint-disable-next-line require-yield
  async *batches(): AsyncGenerator<BalanceTransaction[]> {
    throw new Error('a port method this service should not call');
  }
  payoutsOfSources = unused;
  becameAvailable(_tx: Transaction, after: Date, until: Date): Promise<{ merchantId: MerchantId; currency: Currency; amount: number }[]> {
    const became = this.rows.filter((r) => r.availableOn > after && r.availableOn <= until && r.type !== 'PAYOUT');
    const byKey = new Map<string, { merchantId: MerchantId; currency: Currency; amount: number }>();
    for (const r of became) {
      const key = `${r.merchantId} ${r.currency}`;
      const entry = byKey.get(key) ?? { merchantId: r.merchantId, currency: r.currency, amount: 0 };
      byKey.set(key, { ...entry, amount: entry.amount + r.net });
    }
    return Promise.resolve([...byKey.values()]);
  }
  compacted: Date[] = [];
  compact(_tx: Transaction, before: Date): Promise<void> {
    this.compacted.push(before);
    return Promise.resolve();
  }
}

/** Payouts, kept as snapshots. */
export class MemoryPayouts extends PayoutRepository {
  readonly rows = new Map<string, ReturnType<Payout['snapshot']>>();
  read(id: string): Payout | null {
    const row = this.rows.get(id);
    return row ? Payout.restore(row) : null;
  }
  all(): Payout[] {
    return [...this.rows.keys()].map((id) => this.read(id)!);
  }
  insert(_tx: Transaction, payout: Payout): Promise<void> {
    if (this.rows.has(payout.id)) return Promise.reject(new Error(`duplicate key: payout ${payout.id}`));
    this.rows.set(payout.id, payout.snapshot());
    return Promise.resolve();
  }
  save(_tx: Transaction, payout: Payout): Promise<void> {
    this.rows.set(payout.id, payout.snapshot());
    return Promise.resolve();
  }
  find(_tx: Transaction, payoutId: string): Promise<Payout | null> {
    return Promise.resolve(this.read(payoutId));
  }
  list = unused;
  underWay(_tx: Transaction, merchantId: MerchantId): Promise<Map<Currency, number>> {
    const carried = new Map<Currency, number>();
    for (const p of this.all().map((x) => x.snapshot()))
      if (p.merchantId === merchantId && (p.status === 'PENDING' || p.status === 'IN_TRANSIT'))
        carried.set(p.currency, (carried.get(p.currency) ?? 0) + p.amount);
    return Promise.resolve(carried);
  }
  holds = 0;
  holdBalance(): Promise<void> {
    this.holds += 1;
    return Promise.resolve();
  }
  scheduledExists(_tx: Transaction, merchantId: MerchantId, currency: Currency, day: string): Promise<boolean> {
    return Promise.resolve(
      this.all().some((p) => {
        const s = p.snapshot();
        return s.merchantId === merchantId && s.currency === currency && s.scheduledFor === day;
      }),
    );
  }
  awaitingExport(_tx: Transaction, bankId: string, limit: number, businessId?: string): Promise<Payout[]> {
    return Promise.resolve(
      this.all()
        .filter((p) => {
          const s = p.snapshot();
          return (
            s.destination.bankId === bankId &&
            s.status === 'IN_TRANSIT' &&
            s.exportedAt === null &&
            s.batchId === null &&
            (!businessId || s.businessId === businessId)
          );
        })
        .slice(0, limit),
    );
  }
  ofBatch(_tx: Transaction, batchId: string): Promise<Payout[]> {
    return Promise.resolve(this.all().filter((p) => p.snapshot().batchId === batchId));
  }
}

/** Settlement accounts and the bank catalog. */
export class MemoryAccounts extends SettlementAccountRepository {
  readonly accounts: SettlementAccount[] = [];
  readonly catalog: Bank[] = [BROU, ITAU_BR];
  add(account: SettlementAccount): SettlementAccount {
    this.accounts.push(account);
    return account;
  }
  banks(_tx: Transaction, country?: string): Promise<Bank[]> {
    return Promise.resolve(this.catalog.filter((b) => !country || b.country === country));
  }
  bank(_tx: Transaction, bankId: string): Promise<Bank | null> {
    return Promise.resolve(this.catalog.find((b) => b.bankId === bankId) ?? null);
  }
  put(_tx: Transaction, account: NewSettlementAccount, now: Date): Promise<SettlementAccount> {
    const index = this.accounts.findIndex((a) => a.merchantId === account.merchantId && a.currency === account.currency);
    const bank = this.catalog.find((b) => b.bankId === account.bankId)!;
    const stored = anAccount({
      ...account,
      bank,
      settlementAccountId: index >= 0 ? this.accounts[index].settlementAccountId : crypto.randomUUID(),
      createdAt: index >= 0 ? this.accounts[index].createdAt : now,
      updatedAt: now,
    });
    if (index >= 0) this.accounts[index] = stored;
    else this.accounts.push(stored);
    return Promise.resolve(stored);
  }
  holdAccounts(): Promise<void> {
    return Promise.resolve();
  }
  confirm = unused;
  noteReturned(_tx: Transaction, settlementAccountId: string, payoutId: string): Promise<void> {
    this.update(settlementAccountId, { returnedPayoutId: payoutId });
    return Promise.resolve();
  }
  notePayoutWaiting(_tx: Transaction, settlementAccountId: string, since: string | null): Promise<void> {
    const account = this.accounts.find((a) => a.settlementAccountId === settlementAccountId)!;
    this.update(settlementAccountId, { payoutWaitingSince: since === null ? null : (account.payoutWaitingSince ?? since) });
    return Promise.resolve();
  }
  ofMerchants(_tx: Transaction, merchantIds: readonly MerchantId[]): Promise<SettlementAccount[]> {
    return Promise.resolve(this.accounts.filter((a) => merchantIds.includes(a.merchantId as MerchantId)));
  }
  find(_tx: Transaction, merchantId: MerchantId, currency: Currency): Promise<SettlementAccount | null> {
    return Promise.resolve(this.accounts.find((a) => a.merchantId === merchantId && a.currency === currency) ?? null);
  }
  ofCountry(_tx: Transaction, country: string): Promise<SettlementAccount[]> {
    return Promise.resolve(this.accounts.filter((a) => a.bank.country === country));
  }
  private update(settlementAccountId: string, change: Partial<SettlementAccount>): void {
    const index = this.accounts.findIndex((a) => a.settlementAccountId === settlementAccountId);
    this.accounts[index] = { ...this.accounts[index], ...change };
  }
}

/** Merchants' own prices and the processors' dispute fees. */
export class MemoryPricing extends PricingRepository {
  readonly prices = new Map<string, Map<string, StoredPrice>>();
  readonly disputeFees = new Map<string, number>();
  pricesOf(_tx: Transaction, merchantId: MerchantId): Promise<Map<string, StoredPrice>> {
    return Promise.resolve(new Map(this.prices.get(merchantId) ?? []));
  }
  put(_tx: Transaction, merchantId: MerchantId, countryProcessorId: string, price: StoredPrice): Promise<void> {
    const own = this.prices.get(merchantId) ?? new Map<string, StoredPrice>();
    own.set(countryProcessorId, { percentageBp: price.percentageBp, fixed: price.fixed, settlementDelayDays: price.settlementDelayDays });
    this.prices.set(merchantId, own);
    return Promise.resolve();
  }
  disputeFee(_tx: Transaction, processor: string, currency: Currency): Promise<number> {
    return Promise.resolve(this.disputeFees.get(`${processor} ${currency}`) ?? 0);
  }
  putDisputeFee(_tx: Transaction, processor: string, currency: Currency, amount: number): Promise<void> {
    this.disputeFees.set(`${processor} ${currency}`, amount);
    return Promise.resolve();
  }
}

/** Bank files' batches and debtor accounts. */
export class MemoryBatches extends PayoutBatchRepository {
  readonly batches: PayoutBatchRecord[] = [];
  readonly debtors: DebtorAccount[] = [];
  nextSequence(_tx: Transaction, businessId: string): Promise<number> {
    return Promise.resolve(this.batches.filter((b) => b.businessId === businessId).length + 1);
  }
  insert(_tx: Transaction, batch: PayoutBatchRecord): Promise<void> {
    this.batches.push(batch);
    return Promise.resolve();
  }
  find(_tx: Transaction, batchId: string): Promise<PayoutBatchRecord | null> {
    return Promise.resolve(this.batches.find((b) => b.batchId === batchId) ?? null);
  }
  markWritten = unused;
  debtor(_tx: Transaction, businessId: string): Promise<DebtorAccount | null> {
    return Promise.resolve(this.debtors.find((d) => d.businessId === businessId) ?? null);
  }
  putDebtor(_tx: Transaction, account: DebtorAccount): Promise<void> {
    this.debtors.push(account);
    return Promise.resolve();
  }
}

/** What the admins were told, kept instead of mailed. */
export class KeptNotices extends PayoutNotices {
  readonly told: { currency: Currency; merchantName: string; why: NonNullable<NotCarried> }[] = [];
  currencyWaits(_tx: Transaction, account: SettlementAccount, merchantName: string, why: NonNullable<NotCarried>): Promise<void> {
    this.told.push({ currency: account.currency, merchantName, why });
    return Promise.resolve();
  }
}

/** The runtime settings settlement reads: payouts by `rail`, the sandbox's delay, the payout queue. */
export function settlementSettings(rail: 'SANDBOX' | 'BANK_FILE' = 'SANDBOX'): RuntimeSettings {
  return {
    settlement: { payoutRail: rail, sandboxPayoutDelaySeconds: 1, payoutQueue: 'payouts', accountHoldHours: 24 },
  } as unknown as RuntimeSettings;
}

/** A price of the catalog's shape. */
export type Price = ProcessorPrice & { settlementDelayDays: number };
