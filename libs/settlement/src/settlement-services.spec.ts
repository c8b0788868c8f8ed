import type { CatalogService, CountryProcessor } from '@pcs/catalog';
import type { DailyRuns } from '@pcs/jobs';
import { Caller, Currency, DomainError, Money, Transaction } from '@pcs/kernel';
import type { MerchantConfigurationService, MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import type { ReadReplica } from '@pcs/database';
import type { MerchantAccess } from '@pcs/merchants';
import { BalancesService } from './balances.service';
import { BusinessCalendar } from './domain/business-calendar';
import { Payout } from './domain/payout';
import { PayoutBatchesService, BankFileError } from './payout-batches.service';
import { PricingError, PricingService } from './pricing.service';
import { SettlementAccountsService } from './settlement-accounts.service';
import { SettlementDailyService } from './settlement-daily.service';
import type { SettlementEvents } from './settlement-events';
import type { PayoutsService } from './payouts.service';
import {
  anAccount,
  BROU,
  BUSINESS_ID,
  ITAU_BR,
  MemoryAccounts,
  MemoryBalances,
  MemoryBatches,
  MemoryPayouts,
  MemoryPricing,
  MemoryUnitOfWork,
  MERCHANT_ID,
  NOW,
  settlementSettings,
} from '../test/memory-ports.fixture';

/**
 * The settlement context's other services on their ports in memory: bank files per currency
 * (contract §28), a dispute's debit and fee booked once, prices and the terms an approval fixes,
 * settlement accounts checked and held, and the daily run. Over PostgreSQL: test/bank-files,
 * test/dispute-money, test/settlement*, test/settlement-account-hold and test/payouts e2e specs.
 */
const tx = {} as Transaction;
const caller: Caller = { credentialId: 'c-1', businessId: BUSINESS_ID, merchantId: null };
const URUGUAY = {
  countryId: 'ury',
  iso2: 'UY',
  iso3: 'URY',
  timeZone: 'America/Montevideo',
  currencies: [Currency.UYU, Currency.USD],
  feeTaxBp: 2200,
};
const BRAZIL = {
  countryId: 'bra',
  iso2: 'BR',
  iso3: 'BRA',
  timeZone: 'America/Sao_Paulo',
  currencies: [Currency.BRL, Currency.USD],
  feeTaxBp: 0,
};
const merchant = { merchantId: MERCHANT_ID, businessId: BUSINESS_ID, merchantName: 'Loja', countryId: 'bra', deletedAt: null };
const merchants = {
  findById: () => Promise.resolve(merchant),
  load: () => Promise.resolve({ id: MERCHANT_ID, snapshot: () => merchant }),
} as unknown as MerchantService;
const catalog = {
  findCountryById: (id: string) => Promise.resolve(id === 'ury' ? URUGUAY : BRAZIL),
  findCountryByIso3: (iso3: string) => Promise.resolve(iso3 === 'URY' ? URUGUAY : BRAZIL),
  listCountries: () => Promise.resolve([URUGUAY, BRAZIL]),
} as unknown as CatalogService;

/** A payout of `amount` in `currency` to an account at `bankId`, waiting in transit for its bank file. */
function waiting(payouts: MemoryPayouts, currency: Currency, amount: number, bankId: string): Payout {
  const payout = Payout.create({
    payoutId: crypto.randomUUID(),
    businessId: BUSINESS_ID,
    merchantId: MERCHANT_ID,
    currency,
    amount,
    rail: 'BANK_FILE',
    origin: 'REQUESTED',
    destination: { settlementAccountId: 'sa', bankId, accountNumber: '0001/12345678-9', accountType: 'CHECKING', holderDocument: null },
    transactionCount: 1,
    scheduledFor: null,
    createdAt: NOW,
  });
  payout.markInTransit(NOW, null);
  payouts.rows.set(payout.id, payout.snapshot());
  return payout;
}

describe('PayoutBatchesService (bank files, on their ports in memory)', () => {
  const batchesWith = () => {
    const payouts = new MemoryPayouts();
    const batches = new MemoryBatches();
    const accounts = new MemoryAccounts();
    const service = new PayoutBatchesService(
      new MemoryUnitOfWork(),
      payouts,
      batches,
      accounts,
      merchants,
      catalog,
      new BusinessCalendar(),
    );
    return { service, payouts, batches };
  };

  it('records a batch per business and currency: a Brazilian bank’s BRL one with its CNAB 240, another currency in a CSV of its own', async () => {
    const { service, payouts, batches } = batchesWith();
    const reais = waiting(payouts, Currency.BRL, 150_025, ITAU_BR.bankId);
    const dollars = waiting(payouts, Currency.USD, 7_00, ITAU_BR.bankId);
    await expect(service.export(ITAU_BR.bankId, { now: NOW })).rejects.toThrow(BankFileError);
    expect(batches.batches).toEqual([]);
    await batches.putDebtor(tx, {
      businessId: BUSINESS_ID,
      country: 'BRA',
      bankId: ITAU_BR.bankId,
      document: '11222333000181',
      name: 'Plataforma',
      agreement: '',
      branch: '1234',
      branchDigit: '5',
      account: '567890',
      accountDigit: '0',
      updatedAt: NOW,
    });
    const recorded = await service.export(ITAU_BR.bankId, { now: NOW });
    expect(recorded.map((b) => [b.totals, b.payoutCount, b.cnab240 === null])).toEqual([
      [[{ currency: Currency.BRL, amount: 150_025 }], 1, false],
      [[{ currency: Currency.USD, amount: 7_00 }], 1, true],
    ]);
    expect(recorded.map((b) => b.sequence)).toEqual([1, 2]);
    expect(payouts.read(reais.id)!.snapshot().batchId).toBe(recorded[0].batchId);
    expect(payouts.read(dollars.id)!.snapshot().batchId).toBe(recorded[1].batchId);
    // Nothing waits any more: a second export records nothing.
    expect(await service.export(ITAU_BR.bankId, { now: NOW })).toEqual([]);
  });

  it('writes a Uruguayan bank’s payouts as CSV only, one file per currency', async () => {
    const { service, payouts } = batchesWith();
    waiting(payouts, Currency.UYU, 1_000_00, BROU.bankId);
    waiting(payouts, Currency.USD, 20_00, BROU.bankId);
    const recorded = await service.export(BROU.bankId, { now: NOW });
    expect(recorded.map((b) => [b.totals[0].currency, b.cnab240])).toEqual([
      [Currency.UYU, null],
      [Currency.USD, null],
    ]);
    expect(recorded[0].csv.split('\r\n').filter((line) => line.includes('UYU'))).toHaveLength(1);
  });
});

describe('BalancesService (a dispute’s money, adjustments, on their ports in memory)', () => {
  const balancesWith = () => {
    const balances = new MemoryBalances();
    const pricing = new MemoryPricing();
    const service = new BalancesService(
      new MemoryUnitOfWork(),
      {} as MerchantAccess,
      balances,
      new MemoryPayouts(),
      {} as ReadReplica,
      pricing,
    );
    return { service, balances, pricing };
  };
  const dispute = {
    disputeId: 'dp-1',
    chargeId: 'charge-1',
    businessId: BUSINESS_ID,
    merchantId: MERCHANT_ID,
    currency: Currency.UYU,
    processor: 'MERCADO_PAGO',
    reference: 'CB-1',
  };

  it('brings a dispute’s debit to each target by its difference only, and gives it back when won', async () => {
    const { service, balances } = balancesWith();
    expect(await service.debitDispute(tx, { ...dispute, target: 100_00, why: 'opened' })).toBe(100_00);
    expect(await service.debitDispute(tx, { ...dispute, target: 100_00, why: 'repeated' })).toBe(0);
    // The processor refunded 30.00 before: it takes 70.00 (contract §28).
    expect(await service.debitDispute(tx, { ...dispute, target: 70_00, why: 'refunds' })).toBe(-30_00);
    expect(await service.debitDispute(tx, { ...dispute, target: 0, why: 'won' })).toBe(-70_00);
    expect(balances.of('dp-1').map((r) => [r.type, r.net])).toEqual([
      ['CHARGEBACK', -100_00],
      ['CHARGEBACK_REVERSAL', 30_00],
      ['CHARGEBACK_REVERSAL', 70_00],
    ]);
    await expect(service.debitDispute(tx, { ...dispute, target: -1, why: 'bad' })).rejects.toThrow();
  });

  it('charges a dispute’s fee once, as its processor prices it, and nothing when it is free', async () => {
    const { service, balances, pricing } = balancesWith();
    expect(await service.chargeDisputeFee(tx, dispute)).toBe(false);
    await pricing.putDisputeFee(tx, 'MERCADO_PAGO', Currency.UYU, 250_00);
    expect(await service.chargeDisputeFee(tx, dispute)).toBe(true);
    expect(await service.chargeDisputeFee(tx, dispute)).toBe(false);
    expect(balances.of('dp-1').map((r) => [r.type, r.net])).toEqual([['DISPUTE_FEE', -250_00]]);
  });

  it('adjusts by a signed whole number of minor units, never zero', async () => {
    const { service } = balancesWith();
    expect((await service.adjust(MERCHANT_ID, BUSINESS_ID, Currency.UYU, -225, 'correction')).net).toBe(-225);
    await expect(service.adjust(MERCHANT_ID, BUSINESS_ID, Currency.UYU, 0, 'nothing')).rejects.toThrow();
    await expect(service.adjust(MERCHANT_ID, BUSINESS_ID, Currency.UYU, 2.5, 'a fraction')).rejects.toThrow();
  });
});

describe('PricingService (prices and approval terms, on their ports in memory)', () => {
  const processor = {
    countryProcessorId: 'cp-visa',
    country: URUGUAY,
    currencies: [Currency.UYU],
    paymentMethod: { name: 'VISA' },
    defaultPrice: { percentageBp: 449, fixed: {} },
    settlementDelayDays: 2,
    minimumAmount: { UYU: 20_00 },
  } as unknown as CountryProcessor;
  const pricingWith = () => {
    const prices = new MemoryPricing();
    const relationships = {
      findForOperator: (id: string) =>
        Promise.resolve(id === 'mcp-1' ? { relationship: { merchantId: MERCHANT_ID }, countryProcessor: processor } : null),
    } as unknown as MerchantCountryProcessorService;
    const withProcessors = { ...catalog, findCountryProcessors: () => Promise.resolve([processor]) } as unknown as CatalogService;
    return {
      service: new PricingService(new MemoryUnitOfWork(), withProcessors, prices, new BusinessCalendar(), relationships),
      prices,
    };
  };

  it('fixes at approval the fee and its tax by the merchant’s price, and the day the money is available', async () => {
    const { service } = pricingWith();
    const approvedAt = new Date('2026-11-27T15:00:00Z'); // a Friday in Montevideo
    const terms = await service.approvalTerms({
      merchantId: MERCHANT_ID,
      countryProcessorId: 'cp-visa',
      received: Money.ofMinor(122_000, Currency.UYU),
      approvedAt,
    });
    // 4.49 % of 1,220.00 = 54.78; 22 % of it = 12.05; two business days after Friday: Tuesday.
    expect(terms).toMatchObject({ feeAmount: 54_78, feeTaxAmount: 12_05, liquidationSource: 'CALENDAR' });
    expect(terms.availableOn.toISOString()).toBe('2026-12-01T03:00:00.000Z');
    // A processor's own release date wins over the calendar.
    const released = new Date('2026-12-11T12:00:00Z');
    expect(
      await service.approvalTerms({
        merchantId: MERCHANT_ID,
        countryProcessorId: 'cp-visa',
        received: Money.ofMinor(122_000, Currency.UYU),
        approvedAt,
        releasedOn: released,
      }),
    ).toMatchObject({ availableOn: released, liquidationSource: 'PROCESSOR' });
  });

  it('sets a merchant’s own price within its bounds, keeping what a change does not name', async () => {
    const { service } = pricingWith();
    const set = await service.set(MERCHANT_ID, 'mcp-1', { percentage: 3.49, fixed: { currency: Currency.UYU, amount: 10 } });
    expect(set.price).toMatchObject({ percentageBp: 349, fixed: { UYU: 10_00 }, settlementDelayDays: 2, custom: true });
    expect((await service.set(MERCHANT_ID, 'mcp-1', { percentage: 2.5 })).price.fixed).toEqual({ UYU: 10_00 });
    for (const change of [{ percentage: 20.01 }, { percentage: 1.005 }, { percentage: 1, settlementDelayDays: 61 }])
      await expect(service.set(MERCHANT_ID, 'mcp-1', change)).rejects.toThrow(PricingError);
    await expect(service.set(MERCHANT_ID, 'mcp-1', { percentage: 1, fixed: { currency: Currency.USD, amount: 1 } })).rejects.toThrow(
      'does not take USD',
    );
    await expect(service.set(MERCHANT_ID, 'other', { percentage: 1 })).rejects.toThrow(PricingError);
  });

  it('refuses a collection below the smallest amount that leaves the merchant something, or the catalog’s minimum', async () => {
    const { service } = pricingWith();
    expect(await service.minimumOf(MERCHANT_ID, processor, Currency.UYU)).toBe(20_00);
    await expect(service.assertAboveMinimum(MERCHANT_ID, processor, Money.ofMinor(19_99, Currency.UYU))).rejects.toMatchObject({
      code: 'AMOUNT_BELOW_MINIMUM',
    });
  });
});

describe('SettlementAccountsService (accounts checked and held, on their ports in memory)', () => {
  const accountsWith = (holdHours = 24) => {
    const accounts = new MemoryAccounts();
    const announced: string[] = [];
    const announce = {
      accountUpdated: (_tx: Transaction, _b: string, account: { accountNumber: string }) => {
        announced.push(account.accountNumber);
        return Promise.resolve();
      },
    } as unknown as SettlementEvents;
    const settings = settlementSettings();
    (settings.settlement as { accountHoldHours: number }).accountHoldHours = holdHours;
    const uruguayan = { ...merchant, countryId: 'ury' };
    const loader = { load: () => Promise.resolve({ id: MERCHANT_ID, snapshot: () => uruguayan }) } as unknown as MerchantService;
    return {
      service: new SettlementAccountsService(new MemoryUnitOfWork(), accounts, loader, catalog, announce, settings),
      accounts,
      announced,
    };
  };

  it('keeps the first account at once and holds a later one, telling of each; the same account again changes nothing', async () => {
    const { service, announced } = accountsWith();
    const first = await service.put(caller, MERCHANT_ID, Currency.UYU, {
      bankId: BROU.bankId,
      accountNumber: '001234567',
      accountType: 'SAVINGS',
    });
    expect(first.holdUntil).toBeNull();
    const again = await service.put(caller, MERCHANT_ID, Currency.UYU, {
      bankId: BROU.bankId,
      accountNumber: '001234567',
      accountType: 'SAVINGS',
    });
    expect(again.settlementAccountId).toBe(first.settlementAccountId);
    const changed = await service.put(caller, MERCHANT_ID, Currency.UYU, {
      bankId: BROU.bankId,
      accountNumber: '007654321',
      accountType: 'SAVINGS',
    });
    expect(changed.holdUntil!.getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(announced).toEqual(['001234567', '007654321']);
  });

  it('refuses a currency the country does not pay out in, a bank off the list, and a number the bank does not take', async () => {
    const { service, accounts } = accountsWith();
    const put = (currency: Currency, bankId: string, accountNumber: string) =>
      service
        .put(caller, MERCHANT_ID, currency, { bankId, accountNumber, accountType: 'SAVINGS' })
        .catch((error: DomainError) => error.code);
    expect(await put(Currency.BRL, BROU.bankId, '001234567')).toBe('INVALID_SETTLEMENT_ACCOUNT');
    expect(await put(Currency.UYU, 'no-such-bank', '001234567')).toBe('INVALID_SETTLEMENT_ACCOUNT');
    expect(await put(Currency.UYU, BROU.bankId, '12')).toBe('INVALID_SETTLEMENT_ACCOUNT');
    expect(accounts.accounts).toEqual([]);
  });
});

describe('SettlementDailyService (a country’s day, on its ports in memory)', () => {
  it('pays out the accounts due by their schedule, announces what became available once per day, and folds old figures', async () => {
    const accounts = new MemoryAccounts();
    const balances = new MemoryBalances();
    accounts.add(anAccount());
    balances.credit(300_00, { availableOn: new Date(NOW.getTime() - 3_600_000) });
    const paid: string[] = [];
    const payouts = {
      payScheduled: (account: { merchantId: string }) => {
        paid.push(account.merchantId);
        return Promise.resolve({ skipped: 'nothing available' });
      },
    } as unknown as PayoutsService;
    const announced: string[] = [];
    const claims = new Set<string>();
    const dailyRuns = {
      previousClaim: () => Promise.resolve(new Date(NOW.getTime() - 86_400_000)),
      claimOnce: (_tx: Transaction, kind: string, key: string, day: string) => {
        const claim = `${kind} ${key} ${day}`;
        if (claims.has(claim)) return Promise.resolve(false);
        claims.add(claim);
        return Promise.resolve(true);
      },
    } as unknown as DailyRuns;
    const announce = {
      balanceAvailable: (_tx: Transaction, _b: string, entry: { currency: string; amount: number }) => {
        announced.push(`${entry.currency} ${entry.amount}`);
        return Promise.resolve();
      },
    } as unknown as SettlementEvents;
    const configurations = {
      payoutSchedules: () => Promise.resolve(new Map([[MERCHANT_ID, { interval: 'DAILY', minimumAmount: {} }]])),
    } as unknown as MerchantConfigurationService;
    const uruguayan = { findById: () => Promise.resolve({ ...merchant, countryId: 'ury' }) } as unknown as MerchantService;
    const service = new SettlementDailyService(
      new MemoryUnitOfWork(),
      catalog,
      uruguayan,
      configurations,
      { ofCountry: (country: string) => accounts.ofCountry(tx, country) } as never,
      payouts,
      balances,
      announce,
      new BusinessCalendar(),
      dailyRuns,
    );
    const report = await service.run('URY', '2026-11-27', { now: NOW });
    expect(report).toMatchObject({ payouts: [], skipped: 1, availableEvents: 1 });
    expect(paid).toEqual([MERCHANT_ID]);
    expect(announced).toEqual(['UYU 30000']);
    expect((await service.run('URY', '2026-11-27', { now: NOW })).availableEvents).toBe(0);
    expect(balances.compacted).toHaveLength(2);
  });
});
