import type { CatalogService } from '@pcs/catalog';
import type { JobQueue } from '@pcs/jobs';
import { Caller, Currency, DomainError, Transaction } from '@pcs/kernel';
import type { MerchantService } from '@pcs/merchants';
import type { BalancesService } from './balances.service';
import { BusinessCalendar } from './domain/business-calendar';
import { Payout } from './domain/payout';
import { PayoutsService } from './payouts.service';
import type { SettlementEvents } from './settlement-events';
import {
  anAccount,
  BUSINESS_ID,
  ITAU_BR,
  KeptNotices,
  MemoryAccounts,
  MemoryBalances,
  MemoryPayouts,
  MemoryUnitOfWork,
  MERCHANT_ID,
  NOW,
  settlementSettings,
} from '../test/memory-ports.fixture';

/**
 * Payouts (contracts §19, §24, §28) on their ports in memory: what a payout takes, what each refusal
 * says and in which order, what a scheduled payout does when it must wait, and what a failed,
 * canceled or returned payout gives back. Over PostgreSQL, with concurrency and crashes:
 * test/payouts.e2e-spec.ts, test/payout-crash.e2e-spec.ts, test/bank-files.e2e-spec.ts.
 */
const caller: Caller = { credentialId: 'c-1', businessId: BUSINESS_ID, merchantId: null };
const URUGUAY = { countryId: 'ury', iso2: 'UY', iso3: 'URY', timeZone: 'America/Montevideo' };

function payoutsWith(rail: 'SANDBOX' | 'BANK_FILE' = 'SANDBOX') {
  const balances = new MemoryBalances();
  const payouts = new MemoryPayouts();
  const accounts = new MemoryAccounts();
  const notices = new KeptNotices();
  const events: string[] = [];
  const jobs: { queue: string; data: unknown }[] = [];
  const merchant = { merchantId: MERCHANT_ID, businessId: BUSINESS_ID, merchantName: 'Tienda Pocitos', countryId: 'ury', deletedAt: null };
  const merchants = {
    load: () => Promise.resolve({ snapshot: () => merchant }),
    findById: () => Promise.resolve(merchant),
  } as unknown as MerchantService;
  const catalog = { findCountryById: () => Promise.resolve(URUGUAY) } as unknown as CatalogService;
  const announce = {
    payoutChanged: (_tx: Transaction, payout: Payout) => {
      events.push(...payout.pullEvents());
      return Promise.resolve();
    },
  } as unknown as SettlementEvents;
  const queue = {
    send: (_tx: Transaction, name: string, data: unknown) => {
      jobs.push({ queue: name, data });
      return Promise.resolve();
    },
  } as unknown as JobQueue;
  const service = new PayoutsService(
    new MemoryUnitOfWork(),
    merchants,
    catalog,
    accounts,
    balances,
    {} as BalancesService,
    payouts,
    announce,
    queue,
    new BusinessCalendar(),
    settlementSettings(rail),
    notices,
  );
  return { service, balances, payouts, accounts, notices, events, jobs };
}

const refusal = (promise: Promise<unknown>) => promise.then(() => null).catch((error: DomainError) => error.code);

describe('PayoutsService (on its ports, in memory)', () => {
  it('pays out the whole available balance: a PAYOUT of −amount, in transit at once with its events, and its rail’s job', async () => {
    const { service, balances, payouts, accounts, events, jobs } = payoutsWith();
    accounts.add(anAccount());
    balances.credit(95_51);
    balances.credit(191_02);
    balances.credit(50_00, { availableOn: new Date(NOW.getTime() + 86_400_000) }); // pending: not paid out
    const payout = await service.request(caller, MERCHANT_ID, Currency.UYU);
    expect(payout.snapshot()).toMatchObject({ amount: 286_53, status: 'IN_TRANSIT', transactionCount: 2, rail: 'SANDBOX' });
    expect(balances.of(payout.id).map((r) => [r.type, r.net])).toEqual([['PAYOUT', -286_53]]);
    expect(events).toEqual(['payout.created', 'payout.in_transit']);
    expect(jobs).toEqual([{ queue: 'payouts', data: { payoutId: payout.id, step: 'settle' } }]);
    // Retried under its operation id, the same payout; nothing left: 409.
    expect((await service.request(caller, MERCHANT_ID, Currency.UYU, undefined, payout.id)).id).toBe(payout.id);
    expect(await refusal(service.request(caller, MERCHANT_ID, Currency.UYU))).toBe('NOTHING_TO_PAY_OUT');
    expect(payouts.all()).toHaveLength(1);
  });

  it('pays an amount with the oldest transactions whose whole net it covers, and refuses more than is available', async () => {
    const { service, balances, accounts } = payoutsWith();
    accounts.add(anAccount());
    const [first, second, third] = [95_51, 191_02, 286_53].map((net) => balances.credit(net));
    const payout = await service.request(caller, MERCHANT_ID, Currency.UYU, 296.53);
    expect(payout.snapshot()).toMatchObject({ amount: 296_53, transactionCount: 2 });
    expect([first, second, third].map((t) => balances.of(t.sourceId)[0].payoutId)).toEqual([payout.id, payout.id, null]);
    expect(await refusal(service.request(caller, MERCHANT_ID, Currency.UYU, 1000))).toBe('PAYOUT_AMOUNT_EXCEEDS_AVAILABLE');
  });

  it('refuses in the contract’s order: no account, a currency its rail cannot carry, a hold, a bank’s return', async () => {
    const { service, balances, accounts } = payoutsWith('BANK_FILE');
    balances.credit(100_00, { currency: Currency.USD });
    expect(await refusal(service.request(caller, MERCHANT_ID, Currency.USD))).toBe('SETTLEMENT_ACCOUNT_MISSING');
    // A Brazilian bank's CNAB 240 pays reais only (contract §28): for good, so said before the hold.
    accounts.add(anAccount({ currency: Currency.USD, bank: ITAU_BR, holdUntil: new Date(NOW.getTime() + 3_600_000 * 1e3) }));
    expect(await refusal(service.request(caller, MERCHANT_ID, Currency.USD))).toBe('PAYOUT_CURRENCY_NOT_SUPPORTED');
    accounts.add(anAccount({ holdUntil: new Date(Date.now() + 3_600_000) }));
    balances.credit(100_00);
    expect(await refusal(service.request(caller, MERCHANT_ID, Currency.UYU))).toBe('SETTLEMENT_ACCOUNT_ON_HOLD');
    accounts.accounts[1] = { ...accounts.accounts[1], holdUntil: null, returnedPayoutId: 'po-returned' };
    expect(await refusal(service.request(caller, MERCHANT_ID, Currency.UYU))).toBe('SETTLEMENT_ACCOUNT_RETURNED');
  });

  it('makes a scheduled payout wait for a currency its rail cannot carry, telling the admins once (contract §28)', async () => {
    const { service, balances, accounts, notices, payouts } = payoutsWith('BANK_FILE');
    const account = accounts.add(anAccount({ currency: Currency.USD, bank: ITAU_BR }));
    balances.credit(100_00, { currency: Currency.USD });
    const schedule = { interval: 'DAILY', minimumAmount: {} } as never;
    for (const day of ['2026-12-01', '2026-12-02'])
      expect(await service.payScheduled(account, schedule, day as never)).toEqual({ skipped: expect.stringContaining('BRL only') });
    expect(notices.told).toEqual([
      {
        currency: Currency.USD,
        merchantName: 'Tienda Pocitos',
        why: expect.objectContaining({ reason: expect.stringContaining('CNAB 240') }),
      },
    ]);
    expect(accounts.accounts[0].payoutWaitingSince).toBe('2026-12-01');
    expect(payouts.all()).toEqual([]);
  });

  it('makes a scheduled payout once a day, only from its minimum', async () => {
    const { service, balances, accounts } = payoutsWith();
    const account = accounts.add(anAccount());
    balances.credit(500_00);
    const schedule = { interval: 'DAILY', minimumAmount: { UYU: 1000_00 } } as never;
    expect(await service.payScheduled(account, schedule, '2026-12-01')).toEqual({ skipped: 'below the minimum' });
    balances.credit(600_00);
    const made = await service.payScheduled(account, schedule, '2026-12-01');
    expect('made' in made && made.made.snapshot()).toMatchObject({ amount: 1100_00, origin: 'SCHEDULED', scheduledFor: '2026-12-01' });
    expect(await service.payScheduled(account, schedule, '2026-12-01')).toEqual({ skipped: 'already paid out today' });
  });

  it('gives a failed, canceled or returned payout’s amount back once and frees what it swept; a return stops the account', async () => {
    const { service, balances, accounts, payouts } = payoutsWith('BANK_FILE');
    accounts.add(anAccount());
    const swept = balances.credit(250_00);
    const failing = await service.request(caller, MERCHANT_ID, Currency.UYU);
    await service.markFailed(failing.id, 'account closed');
    expect(balances.of(failing.id).map((r) => [r.type, r.net])).toEqual([
      ['PAYOUT', -250_00],
      ['PAYOUT_FAILURE', 250_00],
    ]);
    expect(balances.of(swept.sourceId)[0].payoutId).toBeNull();
    expect(await refusal(service.markFailed(failing.id, 'again'))).toBe('PAYOUT_INVALID_STATE');
    const canceled = await service.cancel(caller, (await service.request(caller, MERCHANT_ID, Currency.UYU)).id);
    expect(canceled.status).toBe('CANCELED');
    const paid = await service.request(caller, MERCHANT_ID, Currency.UYU);
    await service.markPaid(paid.id, 'BANK-1');
    expect(await refusal(service.markPaid(paid.id, 'BANK-2'))).toBe('PAYOUT_INVALID_STATE');
    await service.markReturned(paid.id, 'refused credit');
    expect(payouts.read(paid.id)!.status).toBe('RETURNED');
    expect(accounts.accounts[0].returnedPayoutId).toBe(paid.id);
    // Every payout gave its amount back: the balance is what it was.
    const [figure] = await balances.figures({} as Transaction, MERCHANT_ID);
    expect(figure.available).toBe(250_00);
  });
});
