import { NestExpressApplication } from '@nestjs/platform-express';
import { cbuFrom } from '@pcs/kernel';
import { BalancesService, PricingService } from '@pcs/settlement';
import { clientFor, createTenant, SignedClient, TestTenant } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { Testbed, testbed } from './testbed';

type Row = Record<string, unknown>;

/** Contract §19: prices, fees fixed at approval, balances and their transactions, settlement accounts. */
describe('after the collection: fees, balances, settlement accounts', () => {
  let bed: Testbed;
  let app: NestExpressApplication;
  let tenant: TestTenant;
  let merchant: SignedClient;
  let business: SignedClient;
  let dataSource: DataSource;
  let merchantId: string;
  /** BROU (its current account numbers have 14 digits) and Banco de la Nación Argentina. */
  let BROU: string;
  let NACION: string;

  beforeAll(async () => {
    bed = await testbed({ payer: { firstName: 'Ana', lastName: 'Pérez', email: 'ana@example.uy' } });
    ({ app, tenant, merchant, business, dataSource } = bed);
    merchantId = tenant.merchants[0].merchantId;
    const banks = (await merchant.get('/bank')).body as { bankId: string; country: string; code: string }[];
    BROU = banks.find((b) => b.country === 'URY' && b.code === '001')!.bankId;
    NACION = banks.find((b) => b.country === 'ARG' && b.code === '011')!.bankId;
  });
  afterAll(() => bed.close());

  const rowsOf = async (intentId: string): Promise<Row[]> =>
    (await merchant.get(`/payin?paymentIntentId=${intentId}&order=ASC&limit=100`)).body[0].results;
  const balanceIn = async (currency = 'UYU'): Promise<Row> =>
    (await merchant.get(`/merchant/${merchantId}/balance`)).body.balances.find((b: Row) => b.currency === currency);
  const relationshipOf = async (method: string): Promise<string> =>
    (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body.find(
      (r: { countryProcessor: { paymentMethod: { paymentMethodName: string } } }) =>
        r.countryProcessor.paymentMethod.paymentMethodName === method,
    ).merchantCountryProcessorId;
  /** The database's own sums: every balance equals its transactions, exactly. */
  const ledgerSums = async (): Promise<{ pending: number; available: number }> => {
    const [row] = await dataSource.query(
      `SELECT coalesce(sum(net) FILTER (WHERE available_on > now() AND available_on > created_at), 0)::bigint AS pending,
              coalesce(sum(net) FILTER (WHERE available_on <= now() OR available_on <= created_at), 0)::bigint AS available
         FROM balance_transaction WHERE merchant_id = $1 AND currency = 'UYU'`,
      [merchantId],
    );
    return { pending: Number(row.pending) / 100, available: Number(row.available) / 100 };
  };

  it('shows each merchant country processor’s price, read-only (the catalog’s until the operator sets one)', async () => {
    const relationships = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Row[];
    const oca = relationships.find((r) => (r.countryProcessor as Row & { paymentMethod: Row }).paymentMethod.paymentMethodName === 'OCA')!;
    expect(oca.pricing).toEqual({ percentage: 4.49, fixed: [], settlementDelayDays: 2 });
    const transfer = relationships.find(
      (r) => (r.countryProcessor as { paymentInstrumentType: Row }).paymentInstrumentType.paymentInstrumentTypeName === 'BANK_TRANSFER',
    )!;
    expect(transfer.pricing).toEqual({
      percentage: 1.49,
      fixed: [
        { currency: 'USD', amount: 0.5 },
        { currency: 'UYU', amount: 15 },
      ],
      settlementDelayDays: 1,
    });
  });

  it('fixes the fee, its tax and the net at approval, with the money available at the start of the second business day', async () => {
    const approvedAt = Date.now();
    const intentId = await bed.paidIntent(1220);
    const [charge] = await rowsOf(intentId);
    // 4.49% of 1,220.00 = 54.778 → 54.78; Uruguay's 22% VAT on it = 12.0516 → 12.05; net 1,153.17.
    expect(charge).toMatchObject({ status: 'APPROVED', receivedAmount: 1220, feeAmount: 54.78, feeTaxAmount: 12.05, netAmount: 1153.17 });
    expect(charge.processorFeeAmount).toBeNull();
    expect(charge.payoutRequestId).toBeNull();
    const liquidation = new Date(charge.liquidationDate as string);
    // Midnight in Montevideo (03:00Z), on a weekday, two to ten days on (weekends and holidays between).
    expect(charge.liquidationDate).toMatch(/T03:00:00\.000Z$/);
    expect([1, 2, 3, 4, 5]).toContain(new Date(liquidation.getTime() - 3 * 3600_000).getUTCDay());
    expect(liquidation.getTime() - approvedAt).toBeGreaterThan(86_400_000);
    expect(liquidation.getTime() - approvedAt).toBeLessThan(10 * 86_400_000);

    const transactions = (await merchant.get(`/balance-transaction?type=PAYIN&merchantId=${merchantId}`)).body[0].results as Row[];
    expect(transactions.find((t) => t.sourceId === charge.transactionId)).toMatchObject({
      type: 'PAYIN',
      currency: 'UYU',
      amount: 1220,
      fee: 66.83,
      net: 1153.17,
      status: 'PENDING',
      availableOn: charge.liquidationDate,
      payoutId: null,
    });
    const balance = await balanceIn();
    expect(balance).toMatchObject({ pending: 1153.17, available: 0, inTransit: 0 });
    expect(balance.upcoming).toEqual([{ availableOn: charge.liquidationDate, amount: 1153.17 }]);
    expect(await ledgerSums()).toEqual({ pending: 1153.17, available: 0 });
  });

  it('never rewrites a fee when the price changes, and keeps the fee when a payment is refunded', async () => {
    const intentId = await bed.paidIntent(100);
    const oca = await relationshipOf('OCA');
    const set = await app
      .get(PricingService)
      .set(merchantId as never, oca, { percentage: 2.5, fixed: { currency: 'UYU' as never, amount: 3 }, settlementDelayDays: 0 });
    expect(set.price).toMatchObject({ percentageBp: 250, fixed: { UYU: 300 }, settlementDelayDays: 0, custom: true });
    const listed = (await merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body.find(
      (r: Row) => r.merchantCountryProcessorId === oca,
    );
    expect(listed.pricing).toEqual({ percentage: 2.5, fixed: [{ currency: 'UYU', amount: 3 }], settlementDelayDays: 0 });
    const [earlier] = await rowsOf(intentId);
    expect(earlier).toMatchObject({ feeAmount: 4.49, feeTaxAmount: 0.99, netAmount: 94.52 });

    // Priced now at 2.5% + 3.00 and available at once: 200.00 → fee 5.00 + 3.00 = 8.00, VAT 1.76, net 190.24.
    const before = await balanceIn();
    const newer = await bed.paidIntent(200);
    const [charge] = await rowsOf(newer);
    expect(charge).toMatchObject({ feeAmount: 8, feeTaxAmount: 1.76, netAmount: 190.24 });
    expect(Math.abs(new Date(charge.liquidationDate as string).getTime() - Date.now())).toBeLessThan(60_000);
    expect((await balanceIn()).available).toBeCloseTo((before.available as number) + 190.24, 2);

    const refunded = await merchant.post(`/payment-intent/${newer}/refund`, { requestedRefundAmount: 50 });
    expect(refunded.status).toBe(200);
    const rows = await rowsOf(newer);
    expect(rows[0]).toMatchObject({ feeAmount: 8, netAmount: 190.24 });
    expect(rows[1]).toMatchObject({ transactionType: 'REFUND', status: 'APPROVED', feeAmount: 0, feeTaxAmount: 0, netAmount: -50 });
    const refund = (await merchant.get(`/balance-transaction?type=REFUND`)).body[0].results.find(
      (t: Row) => t.sourceId === rows[1].transactionId,
    );
    expect(refund).toMatchObject({ amount: -50, fee: 0, net: -50, status: 'AVAILABLE' });
    expect((await balanceIn()).available).toBeCloseTo((before.available as number) + 140.24, 2);
    expect(await ledgerSums()).toEqual({ pending: (await balanceIn()).pending, available: (await balanceIn()).available });
  });

  it('keeps balance transactions append-only in the database itself: no delete, no rewrite, a sweep marks a row once', async () => {
    await bed.paidIntent(30);
    const [row] = await dataSource.query(
      `SELECT balance_transaction_id AS id FROM balance_transaction WHERE merchant_id = $1 AND payout_id IS NULL ORDER BY created_at DESC LIMIT 1`,
      [merchantId],
    );
    const refused = (sql: string, ...values: unknown[]) => expect(dataSource.query(sql, values)).rejects.toThrow(/append-only/);
    await refused(`DELETE FROM balance_transaction WHERE balance_transaction_id = $1`, row.id);
    await refused(`TRUNCATE balance_transaction CASCADE`);
    await refused(`UPDATE balance_transaction SET net = net + 1, amount = amount + 1 WHERE balance_transaction_id = $1`, row.id);
    await refused(
      `UPDATE balance_transaction SET payout_id = gen_random_uuid(), net = net - 1, fee = fee + 1 WHERE balance_transaction_id = $1`,
      row.id,
    );
    // A sweep's update (payout_id from null, nothing else) passes once; the payout it names is then fixed.
    await dataSource.query(`UPDATE balance_transaction SET payout_id = gen_random_uuid() WHERE balance_transaction_id = $1`, [row.id]);
    await refused(`UPDATE balance_transaction SET payout_id = gen_random_uuid() WHERE balance_transaction_id = $1`, row.id);
    await refused(`UPDATE balance_transaction SET payout_id = NULL WHERE balance_transaction_id = $1`, row.id);
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM balance_transaction WHERE balance_transaction_id = $1`, [
      row.id,
    ]);
    expect(n).toBe(1);
  });

  it('answers the transactions as CSV on Accept: text/csv, every row, formulas defused', async () => {
    await app
      .get(BalancesService)
      .adjust(merchantId as never, tenant.business.businessId, 'UYU' as never, -125, '=HYPERLINK("http://evil")');
    const csv = await merchant.get(`/balance-transaction?merchantId=${merchantId}`).set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'balanceTransactionId,merchantId,currency,type,amount,fee,financingFee,net,status,availableOn,sourceId,payoutId,description,createdAt',
    );
    const json = (await merchant.get(`/balance-transaction?merchantId=${merchantId}&limit=100`)).body[0];
    expect(lines).toHaveLength(json.rowCount + 1);
    const adjustment = lines.find((line) => line.includes(',ADJUSTMENT,'))!;
    expect(adjustment).toContain(`,-1.25,0,0,-1.25,AVAILABLE,`);
    expect(adjustment).toContain(`"'=HYPERLINK(""http://evil"")"`);
    // Filters apply to the CSV as to the JSON.
    const payins = await merchant.get(`/balance-transaction?type=PAYIN`).set('Accept', 'text/csv');
    expect(
      payins.text
        .trim()
        .split('\r\n')
        .slice(1)
        .every((line) => line.includes(',PAYIN,')),
    ).toBe(true);
  });

  it('lists the banks of each country with their official codes', async () => {
    const uruguay = (await merchant.get('/bank?country=URY')).body as Row[];
    expect(uruguay.find((b) => b.code === '001')).toEqual({
      bankId: BROU,
      country: 'URY',
      code: '001',
      name: 'Banco de la República Oriental del Uruguay (BROU)',
    });
    const brazil = (await merchant.get('/bank?country=BRA')).body as Row[];
    expect(brazil.find((b) => b.code === '341')).toMatchObject({ name: 'Itaú Unibanco', ispb: '60701190' });
    expect(((await merchant.get('/bank')).body as Row[]).length).toBeGreaterThan(uruguay.length + brazil.length);
    expect((await merchant.get('/bank?country=CHL')).status).toBe(400);
  });

  it('keeps one settlement account per currency, checked against its country, and refuses a bad one with nothing written', async () => {
    const route = `/merchant/${merchantId}/settlement-account`;
    const put = await merchant.put(`${route}/UYU`, { bankId: BROU, accountNumber: '001234567-00001', accountType: 'SAVINGS' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      currency: 'UYU',
      bankId: BROU,
      accountNumber: '00123456700001',
      accountType: 'SAVINGS',
      holderDocument: null,
    });
    for (const [currency, body, reason] of [
      ['UYU', { bankId: BROU, accountNumber: '1234567', accountType: 'SAVINGS' }, 'BROU'],
      ['UYU', { bankId: NACION, accountNumber: cbuFrom('0110599', '0000000012345'), accountType: 'CHECKING' }, 'the bank is in ARG'],
      ['ARS', { bankId: BROU, accountNumber: '00123456700001', accountType: 'SAVINGS' }, 'URY pays out in UYU or USD'],
      ['UYU', { bankId: '00000000-0000-0000-0000-000000000000', accountNumber: '00123456700001', accountType: 'SAVINGS' }, 'bankId'],
      ['UYU', { bankId: BROU, accountNumber: '00123456700001', accountType: 'PIX_KEY' }, 'PIX'],
      ['UYU', { bankId: BROU, accountNumber: '00123456700001', accountType: 'SAVINGS', holderDocument: '12345678' }, 'holderDocument'],
    ] as const) {
      const refused = await merchant.put(`${route}/${currency}`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.errorId).toBe('Payins:INVALID_SETTLEMENT_ACCOUNT');
      expect(refused.body.message).toContain(reason);
      expect(refused.body.showMessage.ES).toContain('La cuenta de liquidación no es válida');
    }
    expect((await merchant.put(`${route}/XYZ`, { bankId: BROU, accountNumber: '00123456700001', accountType: 'SAVINGS' })).status).toBe(
      400,
    );
    const usd = await merchant.put(`${route}/USD`, {
      bankId: BROU,
      accountNumber: '00987654300002',
      accountType: 'CHECKING',
      holderDocument: '1.234.567-2',
    });
    expect(usd.body).toMatchObject({ currency: 'USD', holderDocument: '12345672' });
    const accounts = (await merchant.get(route)).body as Row[];
    expect(accounts.map((a) => [a.currency, a.accountNumber])).toEqual([
      ['USD', '00987654300002'],
      ['UYU', '00123456700001'],
    ]);
    // Replacing keeps the account's id.
    const again = await merchant.put(`${route}/UYU`, { bankId: BROU, accountNumber: '00123456700009', accountType: 'SAVINGS' });
    expect(again.body.settlementAccountId).toBe(put.body.settlementAccountId);
  });

  it('sets the seed’s settlementBank through the merchant update, checked, in the same transaction', async () => {
    const [other] = (await createTenant(app)).merchants;
    const client = clientFor(app, other);
    const refused = await client.patch(`/merchant/${other.merchantId}`, {
      merchantName: 'Renamed',
      account: { settlementBank: { bankId: BROU, accountNumber: '1234', currency: 'UYU' } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errorId).toBe('Payins:INVALID_SETTLEMENT_ACCOUNT');
    // Nothing of the refused update was written.
    expect((await client.get(`/merchant/${other.merchantId}`)).body.merchantName).not.toBe('Renamed');
    expect((await client.get(`/merchant/${other.merchantId}/settlement-account`)).body).toEqual([]);

    const updated = await client.patch(`/merchant/${other.merchantId}`, {
      merchantName: 'Renamed',
      account: { settlementBank: { bankId: BROU, accountNumber: '001234567-00001', currency: 'UYU' } },
    });
    expect(updated.status).toBe(200);
    const [account] = (await client.get(`/merchant/${other.merchantId}/settlement-account`)).body;
    expect(account).toMatchObject({ currency: 'UYU', accountNumber: '00123456700001', accountType: 'CHECKING' });
    expect(updated.body.account.settlementBank).toEqual({
      settlementBankId: account.settlementAccountId,
      bankId: BROU,
      accountNumber: '00123456700001',
      currency: 'UYU',
    });
    // An account set on its own route shows in the merchant too.
    await client.put(`/merchant/${other.merchantId}/settlement-account/UYU`, {
      bankId: BROU,
      accountNumber: '00123456700005',
      accountType: 'SAVINGS',
    });
    expect((await client.get(`/merchant/${other.merchantId}`)).body.account.settlementBank.accountNumber).toBe('00123456700005');
  });

  it('keeps a payout schedule in the merchant configuration, refusing a bad one as the configuration’s 400', async () => {
    const route = `/merchant/${merchantId}/configuration`;
    expect((await merchant.get(route)).body.payoutSchedule).toEqual({ interval: 'DAILY', minimumAmount: {} });
    const weekly = await merchant.put(route, {
      payoutSchedule: { interval: 'WEEKLY', weeklyAnchor: 'FRIDAY', minimumAmount: { UYU: 1000.5 } },
    });
    expect(weekly.status).toBe(200);
    expect(weekly.body.payoutSchedule).toEqual({ interval: 'WEEKLY', weeklyAnchor: 'FRIDAY', minimumAmount: { UYU: 1000.5 } });
    for (const bad of [
      { interval: 'HOURLY' },
      { interval: 'DAILY', weeklyAnchor: 'FRIDAY' },
      { interval: 'WEEKLY', weeklyAnchor: 'SATURDAY' },
      { interval: 'MONTHLY', monthlyAnchor: 32 },
      { interval: 'DAILY', minimumAmount: { UYU: 1.005 } },
      { interval: 'DAILY', minimumAmount: { XXX: 1 } },
      { interval: 'DAILY', minimumAmount: { UYU: -1 } },
      { interval: 'DAILY', minimumAmount: [] },
    ]) {
      const refused = await merchant.put(route, { payoutSchedule: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.errorId).toBe('Payins:ERROR_IN_UPDATE_MERCHANT_CONFIGURATION');
    }
    expect((await merchant.get(route)).body.payoutSchedule.interval).toBe('WEEKLY');
    await merchant.put(route, { payoutSchedule: { interval: 'DAILY' } });
  });

  it('keeps another tenant out of balances, transactions and settlement accounts (404, nothing shown)', async () => {
    const stranger = await createTenant(app);
    for (const client of [clientFor(app, stranger.business), clientFor(app, stranger.merchants[0])]) {
      for (const response of [
        await client.get(`/merchant/${merchantId}/balance`),
        await client.get(`/merchant/${merchantId}/settlement-account`),
        await client.put(`/merchant/${merchantId}/settlement-account/UYU`, {
          bankId: BROU,
          accountNumber: '00123456700077',
          accountType: 'SAVINGS',
        }),
        await client.get(`/balance-transaction?merchantId=${merchantId}`),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body.errorId).toBe('Payins:MERCHANT_NOT_FOUND');
      }
      expect((await client.get('/balance-transaction')).body[0].rowCount).toBe(0);
    }
    expect(
      (await merchant.get(`/merchant/${merchantId}/settlement-account`)).body.some((a: Row) => a.accountNumber === '00123456700077'),
    ).toBe(false);
    // The business sees its merchant's; the merchant its own.
    expect((await business.get(`/balance-transaction?merchantId=${merchantId}`)).body[0].rowCount).toBeGreaterThan(0);
  });
});
