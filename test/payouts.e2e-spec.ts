import { NestExpressApplication } from '@nestjs/platform-express';
import { MerchantId } from '@pcs/kernel';
import { PayoutBatchesService, PayoutsService, PricingService, SettlementDailyService } from '@pcs/settlement';
import { clientFor, createTenant, eventually, SignedClient, TestTenant } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { signSettlementConfirmation } from '@pcs/config';
import { authenticatorCode, readyPerson, testIdentity, testMasterKey } from './dashboard-people';
import { Testbed, testbed } from './testbed';

type Row = Record<string, unknown>;
const PAYER = { firstName: 'Payout', lastName: 'Tester', email: 'payout@example.uy' };

/** What one merchant's test needs: its clients, a payer, available money at once (OCA priced with no delay), an account. */
interface Shop {
  readonly merchantId: string;
  readonly businessId: string;
  readonly client: SignedClient;
  paid(amount: number): Promise<{ intentId: string; transactionId: string; net: number }>;
  balance(currency?: string): Promise<{ pending: number; available: number; inTransit: number }>;
  /** Sums of its UYU balance transactions, from the database itself. */
  sums(): Promise<{ pending: number; available: number; all: number }>;
}

describe('payouts (contracts §19, §24)', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let brou: string;

  beforeAll(async () => {
    bed = await testbed({ payer: PAYER });
    ({ app } = bed);
    brou = ((await bed.merchant.get('/bank?country=URY')).body as { bankId: string; code: string }[]).find((b) => b.code === '001')!.bankId;
  });
  afterAll(() => bed.close());

  /** A merchant of its own (a tenant's first), priced so that collections are available at once, with a UYU account. */
  async function shop(
    options: { tenant?: TestTenant; accountNumber?: string | null; target?: NestExpressApplication } = {},
  ): Promise<Shop> {
    const target = options.target ?? app;
    const tenant = options.tenant ?? (await createTenant(target));
    const merchantId = tenant.merchants[0].merchantId;
    const client = clientFor(target, tenant.merchants[0]);
    const payerId = (await client.post('/payer', PAYER)).body.payerId as string;
    const relationships = (await client.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Row[];
    const oca = relationships.find((r) => (r.countryProcessor as { paymentMethod: Row }).paymentMethod.paymentMethodName === 'OCA')!;
    await target.get(PricingService).set(merchantId, oca.merchantCountryProcessorId as string, { percentage: 3, settlementDelayDays: 0 });
    if (options.accountNumber !== null)
      expect(
        (
          await client.put(`/merchant/${merchantId}/settlement-account/UYU`, {
            bankId: brou,
            accountNumber: options.accountNumber ?? '00123456700001',
            accountType: 'SAVINGS',
          })
        ).status,
      ).toBe(200);
    return {
      merchantId,
      businessId: tenant.business.businessId,
      client,
      paid: async (amount) => {
        const created = await client.post('/payment-intent', {
          currency: 'UYU',
          amount,
          payinType: 'DEFAULT',
          externalReference: `payout-${crypto.randomUUID()}`,
          payerId,
          offSession: true,
          invoiceNumber: 1,
          country: 'URY',
          paymentInstrumentData: { paymentMethodName: 'OCA' },
          confirm: true,
        });
        expect(created.body.status).toBe('SUCCEEDED');
        const intentId = created.body.paymentIntent.paymentIntentId as string;
        const [row] = (await client.get(`/payin?paymentIntentId=${intentId}`)).body[0].results;
        return { intentId, transactionId: row.transactionId, net: row.netAmount };
      },
      balance: async (currency = 'UYU') =>
        (await client.get(`/merchant/${merchantId}/balance`)).body.balances.find((b: Row) => b.currency === currency),
      sums: async () => {
        const [row] = await target.get(DataSource).query(
          `SELECT coalesce(sum(net) FILTER (WHERE available_on > now() AND available_on > created_at), 0)::bigint AS pending,
                  coalesce(sum(net) FILTER (WHERE available_on <= now() OR available_on <= created_at), 0)::bigint AS available,
                  coalesce(sum(net), 0)::bigint AS all
             FROM balance_transaction WHERE merchant_id = $1 AND currency = 'UYU'`,
          [merchantId],
        );
        return { pending: Number(row.pending) / 100, available: Number(row.available) / 100, all: Number(row.all) / 100 };
      },
    };
  }

  const settled = (client: SignedClient, payoutId: string) =>
    eventually(
      () => client.get(`/payout/${payoutId}`).then((r) => r.body as Row),
      (p) => p.status === 'PAID' || p.status === 'FAILED',
    );
  const cents = (value: number) => Math.round(value * 100);

  it('pays out the whole available balance: sweeps it, shows the payout on every swept row, in transit, then paid', async () => {
    const s = await shop();
    const first = await s.paid(1000);
    const second = await s.paid(250.5);
    const available = first.net + second.net;
    expect(await s.balance()).toMatchObject({ pending: 0, available, inTransit: 0 });

    const created = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' });
    expect(created.status).toBe(200);
    const payout = created.body;
    // In transit from the transaction that made it: nobody ever sees a sandbox payout PENDING (contract §24).
    expect(payout).toMatchObject({
      merchantId: s.merchantId,
      currency: 'UYU',
      amount: available,
      transactionCount: 2,
      paidAt: null,
      status: 'IN_TRANSIT',
    });
    expect(payout.arrivalDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(payout.settlementBank).toMatchObject({ bankId: brou, accountNumber: '00123456700001', accountType: 'SAVINGS', currency: 'UYU' });
    expect(await s.balance()).toMatchObject({ available: 0, inTransit: available });

    const swept = (await s.client.get(`/payout/${payout.payoutId}/transactions`)).body[0];
    expect(swept.rowCount).toBe(3);
    expect(swept.results.map((t: Row) => [t.type, t.amount]).sort()).toEqual(
      [
        ['PAYIN', 1000],
        ['PAYIN', 250.5],
        ['PAYOUT', -available],
      ].sort(),
    );
    const ledger = (await s.client.get(`/payin?merchantId=${s.merchantId}`)).body[0].results as Row[];
    expect(ledger.map((row) => row.payoutRequestId)).toEqual([payout.payoutId, payout.payoutId]);

    const paid = await settled(s.client, payout.payoutId);
    expect(paid).toMatchObject({ status: 'PAID', bankReference: `SANDBOX-${payout.payoutId.slice(0, 8).toUpperCase()}` });
    expect(paid.arrivalDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(paid.paidAt).not.toBeNull();
    expect(await s.balance()).toMatchObject({ pending: 0, available: 0, inTransit: 0 });
    const events = (await s.client.get(`/event?merchantId=${s.merchantId}&limit=100`)).body[0].results as Row[];
    expect(
      events
        .filter((e) => (e.type as string).startsWith('payout.'))
        .map((e) => e.type)
        .reverse(),
    ).toEqual(['payout.created', 'payout.in_transit', 'payout.paid']);
    const csv = await s.client.get(`/payout/${payout.payoutId}/transactions`).set('Accept', 'text/csv');
    expect(csv.text.trim().split('\r\n')).toHaveLength(4);
    const listed = await s.client.get(`/payout?merchantId=${s.merchantId}&status=PAID`);
    expect(listed.body[0].results.map((p: Row) => p.payoutId)).toEqual([payout.payoutId]);
    const listedCsv = await s.client.get(`/payout`).set('Accept', 'text/csv');
    expect(listedCsv.text).toContain(`${payout.payoutId},${s.merchantId},UYU,${available},PAID,${brou},`);
  });

  it('pays out an amount of it, sweeping the oldest transactions it covers whole, and refuses in the contract’s order', async () => {
    const s = await shop();
    const first = await s.paid(100);
    const second = await s.paid(200);
    const third = await s.paid(300);
    // Covers the first two whole and part of the third: the third is not split, it stays available and unswept.
    const amount = Math.round((first.net + second.net + 50) * 100) / 100;
    const part = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU', amount });
    expect(part.body).toMatchObject({ amount, transactionCount: 2, status: 'IN_TRANSIT' });
    const ledger = (await s.client.get(`/payin?merchantId=${s.merchantId}&order=ASC`)).body[0].results as Row[];
    expect(ledger.map((row) => [row.transactionId, row.payoutRequestId])).toEqual([
      [first.transactionId, part.body.payoutId],
      [second.transactionId, part.body.payoutId],
      [third.transactionId, null],
    ]);
    const left = cents(first.net + second.net + third.net) - cents(amount);
    expect(cents((await s.balance()).available)).toBe(left);
    // Less than the oldest transaction sweeps none.
    const small = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU', amount: 1 });
    expect(small.body).toMatchObject({ amount: 1, transactionCount: 0 });
    // The whole balance takes what is left: the third payin (the amount payouts netted the rest).
    const rest = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' });
    expect(rest.body).toMatchObject({ amount: (left - 100) / 100, transactionCount: 1 });

    const noAccount = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'USD', amount: 1_000_000 });
    expect(noAccount.status).toBe(409);
    expect(noAccount.body.errorId).toBe('Payins:SETTLEMENT_ACCOUNT_MISSING');
    const tooMuch = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU', amount: 1_000_000 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errorId).toBe('Payins:PAYOUT_AMOUNT_EXCEEDS_AVAILABLE');
    expect(tooMuch.body.showMessage.ES).toContain('supera el saldo disponible');
    for (const amount of [1.005, 0, -5]) {
      const bad = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU', amount });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toContain('amount');
    }
    await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' });
    const nothing = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' });
    expect(nothing.status).toBe(409);
    expect(nothing.body.errorId).toBe('Payins:NOTHING_TO_PAY_OUT');
    const amountOfNothing = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU', amount: 1 });
    expect(amountOfNothing.status).toBe(400);
    expect((await s.sums()).available).toBe((await s.balance()).available);
  });

  it('honours the Idempotency-Key, and pays once under 20 concurrent requests', async () => {
    const s = await shop();
    const { net } = await s.paid(400);
    const key = crypto.randomUUID();
    const send = () => s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' }).set('Idempotency-Key', key);
    const first = await send();
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body.payoutId).toBe(first.body.payoutId);
    const other = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU', amount: 1 }).set('Idempotency-Key', key);
    expect(other.status).toBe(422);

    const { net: more } = await s.paid(700);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' })),
    );
    const made = answers.filter((a) => a.status === 200);
    expect(made).toHaveLength(1);
    expect(made[0].body.amount).toBe(more);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.errorId === 'Payins:NOTHING_TO_PAY_OUT')).toBe(true);
    const payouts = (await s.client.get(`/payout?merchantId=${s.merchantId}`)).body[0].results as Row[];
    expect(payouts.map((p) => p.amount).sort()).toEqual([more, net].sort());
  });

  it('reads the available balance and sweeps in one statement: a payin committed meanwhile is in a payout’s amount and swept, or neither', async () => {
    const s = await shop();
    await s.paid(100);
    // Six streams of payins, one after another in each, approved while payouts of the whole balance are asked all along. A race
    // test: the earlier code (the figure and the sweep as two statements) failed it in three runs of four.
    let streams = 6;
    const payins = Array.from({ length: streams }, async (_, stream) => {
      const made: { net: number }[] = [];
      for (let i = 0; i < 6; i++) made.push(await s.paid(100 + stream * 10 + i));
      streams -= 1;
      return made;
    });
    const requests: Promise<{ status: number; body: Row }>[] = [];
    while (streams > 0 && requests.length < 200) {
      // Sent now (supertest sends a request when it is awaited or then'd, not when built).
      requests.push(
        s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' }).then((r) => ({ status: r.status, body: r.body as Row })),
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const nets = (await Promise.all(payins)).flat().map((p) => p.net);
    const made = (await Promise.all(requests)).filter((r) => r.status === 200).map((r) => r.body);
    const last = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' });
    if (last.status === 200) made.push(last.body);
    for (const payout of made) {
      const swept = ((await s.client.get(`/payout/${payout.payoutId as string}/transactions?limit=100`)).body[0].results as Row[]).filter(
        (t) => t.type !== 'PAYOUT',
      );
      // A whole-balance payout pays exactly what it swept: nothing counted unswept, nothing swept uncounted.
      expect([payout.payoutId, swept.reduce((sum, t) => sum + cents(t.net as number), 0)]).toEqual([
        payout.payoutId,
        cents(payout.amount as number),
      ]);
    }
    const paidOut = made.reduce((sum, p) => sum + cents(p.amount as number), 0);
    const collected = (await s.client.get(`/balance-transaction?type=PAYIN&merchantId=${s.merchantId}&limit=100`)).body[0].results as Row[];
    expect(collected).toHaveLength(nets.length + 1);
    expect(paidOut).toBe(collected.reduce((sum, t) => sum + cents(t.net as number), 0));
    expect(await s.balance()).toMatchObject({ available: 0 });
  });

  it('lets a refund race a payout without losing or doubling a cent; the next payout nets a negative balance', async () => {
    const s = await shop();
    await s.paid(500);
    const refunded = await s.paid(300);
    const [payout, refund] = await Promise.all([
      s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' }),
      s.client.post(`/payment-intent/${refunded.intentId}/refund`, {}),
    ]);
    expect(payout.status).toBe(200);
    expect(refund.status).toBe(200);
    const after = await s.balance();
    // Whichever came first, the refund's −300 lands once: available is every net movement, the payout's debit included.
    const sums = await s.sums();
    expect([cents(after.available), cents(after.pending)]).toEqual([cents(sums.available), cents(sums.pending)]);
    expect(cents(after.available)).toBe(cents(sums.all));
    expect(after.available).toBeLessThanOrEqual(0);
    const { net } = await s.paid(1000);
    if (after.available < 0) {
      const next = await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' });
      expect(cents(next.body.amount)).toBe(cents(net) + cents(after.available));
    }
  });

  it('puts back exactly what a failed payout took (the sandbox bank refuses accounts ending in 13)', async () => {
    const s = await shop({ accountNumber: '00123456700013' });
    const { net } = await s.paid(640);
    const created = (await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' })).body;
    const failed = await settled(s.client, created.payoutId);
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'the sandbox bank refused the account (its number ends in 13)' });
    expect(await s.balance()).toMatchObject({ available: net, inTransit: 0 });
    const back = (await s.client.get(`/balance-transaction?type=PAYOUT_FAILURE&merchantId=${s.merchantId}`)).body[0].results;
    // The failure nets the payout inside it, and what the payout swept is free again (contract §24).
    expect(back).toMatchObject([{ amount: net, net, sourceId: created.payoutId, payoutId: created.payoutId, status: 'AVAILABLE' }]);
    const swept = (await s.client.get(`/balance-transaction?payoutId=${created.payoutId}&merchantId=${s.merchantId}`)).body[0].results;
    expect((swept as Row[]).map((t) => t.type).sort()).toEqual(['PAYOUT', 'PAYOUT_FAILURE']);
    const types = ((await s.client.get(`/event?merchantId=${s.merchantId}&limit=100`)).body[0].results as Row[]).map((e) => e.type);
    expect(types).toContain('payout.failed');
    // The next payout takes the money back out, to a new account an admin confirmed (a changed account waits otherwise).
    await s.client.put(`/merchant/${s.merchantId}/settlement-account/UYU`, {
      bankId: brou,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
    });
    // As the dashboard confirms it (contract §30): the admin's code checked by its identity, the API sent its signed confirmation.
    const admin = await readyPerson(testIdentity(bed.dataSource), { businessId: s.businessId, role: 'admin' });
    const confirmer = await testIdentity(bed.dataSource).confirmAsAdmin({
      businessId: s.businessId,
      merchantId: s.merchantId,
      email: admin.email,
      code: await authenticatorCode(admin),
      address: '198.51.100.25',
      action: 'settlement-account:confirm',
      target: `${s.merchantId}:UYU`,
    });
    const confirmation = signSettlementConfirmation(testMasterKey(), {
      businessId: s.businessId,
      merchantId: s.merchantId,
      currency: 'UYU',
      bankId: brou,
      accountNumber: '00123456700001',
      confirmedBy: confirmer!.email,
      at: Math.floor(Date.now() / 1000),
    });
    const confirmed = await s.client.post(`/merchant/${s.merchantId}/settlement-account/UYU/confirm`, { confirmation });
    expect(confirmed.body).toMatchObject({ holdUntil: null, accountNumber: '00123456700001' });
    const retried = (await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' })).body;
    expect(retried).toMatchObject({ amount: net, transactionCount: 1 });
    const payin = (await s.client.get(`/balance-transaction?type=PAYIN&merchantId=${s.merchantId}`)).body[0].results;
    expect(payin).toMatchObject([{ payoutId: retried.payoutId }]);
    expect(await s.sums()).toMatchObject({ available: 0 });
  });

  it('on the bank-file rail: waits in the batch, cancels before export, is exported once, and takes the bank’s answer', async () => {
    const fileApi = await testbed({ settlement: { payoutRail: 'BANK_FILE' } });
    try {
      const s = await shop({ tenant: fileApi.tenant, target: fileApi.app });
      const { net } = await s.paid(900);
      const first = (await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' })).body;
      const waiting = await eventually(
        () => s.client.get(`/payout/${first.payoutId}`).then((r) => r.body as Row),
        (p) => p.status === 'IN_TRANSIT',
      );
      expect(waiting).toMatchObject({ status: 'IN_TRANSIT', arrivalDate: null });
      const canceled = await s.client.post(`/payout/${first.payoutId}/cancel`);
      expect(canceled.body).toMatchObject({ status: 'CANCELED' });
      expect(await s.balance()).toMatchObject({ available: net, inTransit: 0 });

      const second = (await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU', amount: 400 })).body;
      const third = (await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU', amount: 100 })).body;
      for (const p of [second, third])
        await eventually(
          () => s.client.get(`/payout/${p.payoutId}`).then((r) => r.body as Row),
          (r) => r.status === 'IN_TRANSIT',
        );
      const payouts = fileApi.app.get(PayoutsService);
      const batches = fileApi.app.get(PayoutBatchesService);
      const [batch, ...others] = await batches.export(brou, { businessId: fileApi.tenant.business.businessId });
      expect(others).toEqual([]);
      expect((await batches.payoutsOf(batch.batchId)).map((p) => p.id).sort()).toEqual([second.payoutId, third.payoutId].sort());
      expect(batch).toMatchObject({ payoutCount: 2, totals: [{ currency: 'UYU', amount: 50_000 }], cnab240: null });
      // Exported once: a second export finds neither.
      expect(await batches.export(brou, { businessId: fileApi.tenant.business.businessId })).toEqual([]);
      const late = await s.client.post(`/payout/${second.payoutId}/cancel`);
      expect(late.status).toBe(409);
      expect(late.body.errorId).toBe('Payins:PAYOUT_INVALID_STATE');
      await payouts.markPaid(second.payoutId, 'BROU-778899');
      await payouts.markFailed(third.payoutId, 'cuenta cerrada');
      expect((await s.client.get(`/payout/${second.payoutId}`)).body).toMatchObject({ status: 'PAID', bankReference: 'BROU-778899' });
      expect((await s.client.get(`/payout/${second.payoutId}`)).body.arrivalDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect((await s.client.get(`/payout/${third.payoutId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'cuenta cerrada' });
      await expect(payouts.markFailed(third.payoutId, 'again')).rejects.toThrow();
      const after = await s.balance();
      expect([cents(after.available), after.inTransit]).toEqual([cents(net) - 40_000, 0]);
    } finally {
      await fileApi.close();
    }
  });

  it('makes scheduled payouts once a day on the schedule, above the minimum only', async () => {
    const s = await shop();
    const daily = app.get(SettlementDailyService);
    const run = (day: string) => daily.run('URY', day, { merchantIds: [s.merchantId as MerchantId] });
    const { net } = await s.paid(150);
    // Wednesday 25 November 2026, a business day in Uruguay; the default schedule is DAILY.
    const made = await run('2026-11-25');
    expect(made.payouts).toHaveLength(1);
    expect((await run('2026-11-25')).payouts).toHaveLength(0);
    const [payout] = (await s.client.get(`/payout?merchantId=${s.merchantId}`)).body[0].results;
    expect(payout).toMatchObject({ payoutId: made.payouts[0], amount: net });
    // Saturday: no DAILY payout.
    await s.paid(200);
    expect((await run('2026-11-28')).payouts).toHaveLength(0);
    // A minimum above the balance holds it; MANUAL never pays by itself.
    await s.client.put(`/merchant/${s.merchantId}/configuration`, { payoutSchedule: { interval: 'DAILY', minimumAmount: { UYU: 500 } } });
    expect((await run('2026-11-30')).payouts).toHaveLength(0);
    await s.paid(400);
    expect((await run('2026-11-30')).payouts).toHaveLength(1);
    await s.client.put(`/merchant/${s.merchantId}/configuration`, { payoutSchedule: { interval: 'MANUAL' } });
    await s.paid(999);
    expect((await run('2026-12-01')).payouts).toHaveLength(0);
    // No settlement account: nothing is paid, nothing fails.
    const without = await shop({ accountNumber: null });
    await without.paid(100);
    expect((await daily.run('URY', '2026-12-01', { merchantIds: [without.merchantId as MerchantId] })).payouts).toHaveLength(0);
  });

  it('announces balance.available once a day for money that became available', async () => {
    const s = await shop();
    const [rel] = ((await s.client.get(`/merchant-country-processor?merchantId=${s.merchantId}`)).body as Row[]).filter(
      (r) => (r.countryProcessor as { paymentMethod: Row }).paymentMethod.paymentMethodName === 'OCA',
    );
    await app
      .get(PricingService)
      .set(s.merchantId as MerchantId, rel.merchantCountryProcessorId as string, { percentage: 3, settlementDelayDays: 1 });
    const { transactionId, net } = await s.paid(800);
    const [row] = (await s.client.get(`/payin?merchantId=${s.merchantId}`)).body[0].results;
    expect(row.transactionId).toBe(transactionId);
    const availableOn = new Date(row.liquidationDate);
    const daily = app.get(SettlementDailyService);
    const later = new Date(availableOn.getTime() + 3600_000);
    const day = later.toISOString().slice(0, 10);
    expect((await daily.run('URY', day, { merchantIds: [s.merchantId as MerchantId], now: later })).availableEvents).toBe(1);
    expect((await daily.run('URY', day, { merchantIds: [s.merchantId as MerchantId], now: later })).availableEvents).toBe(0);
    const [event] = (await s.client.get(`/event?merchantId=${s.merchantId}&type=balance.available`)).body[0].results;
    expect(event.data.object).toEqual({ merchantId: s.merchantId, currency: 'UYU', amount: net, date: day });
  });

  it('keeps another tenant out of payouts (404) and its lists', async () => {
    const s = await shop();
    await s.paid(120);
    const payout = (await s.client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' })).body;
    const stranger = await createTenant(app);
    for (const client of [clientFor(app, stranger.business), clientFor(app, stranger.merchants[0])]) {
      const attempts = [
        await client.post(`/merchant/${s.merchantId}/payout`, { currency: 'UYU' }),
        await client.get(`/payout/${payout.payoutId}`),
        await client.get(`/payout/${payout.payoutId}/transactions`),
        await client.post(`/payout/${payout.payoutId}/cancel`),
        await client.get(`/payout?merchantId=${s.merchantId}`),
      ];
      for (const response of attempts) {
        expect(response.status).toBe(404);
        expect(response.body.errorId).toMatch(/^Payins:(MERCHANT|PAYOUT)_NOT_FOUND$/);
      }
      expect((await client.get('/payout')).body[0].rowCount).toBe(0);
    }
    expect((await s.client.get(`/payout/${payout.payoutId}`)).status).toBe(200);
  });
});
