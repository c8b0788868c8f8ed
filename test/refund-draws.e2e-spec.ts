import { Currency } from '@pcs/kernel';
import { PriceChange, PricingService } from '@pcs/settlement';
import * as crypto from 'node:crypto';
import { Testbed, testbed } from './testbed';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const PAYER = { firstName: 'Lucía', lastName: 'Pereira', email: 'lucia@example.uy' };

/**
 * Money back and money too small (contract §24): a refund draws on its payment's pending net first; a manual refund (the
 * merchant returned the money itself) moves no balance money; a payment below the processor's minimum — the catalog's, and at
 * least what leaves the merchant something after the fee and its tax — is refused at confirm and at initialize.
 */
describe('refunds draw on pending money first, manual refunds move none, and no payment costs more than it brings', () => {
  let bed: Testbed;
  let merchantId: string;
  let oca: string;

  beforeAll(async () => {
    bed = await testbed({ payer: PAYER });
    merchantId = bed.tenant.merchants[0].merchantId;
    const relationships = (await bed.merchant.get(`/merchant-country-processor?merchantId=${merchantId}`)).body as Json[];
    oca = relationships.find((r) => r.countryProcessor.paymentMethod.paymentMethodName === 'OCA')!.merchantCountryProcessorId as string;
  });
  afterAll(() => bed.close());

  const price = (change: PriceChange) => bed.app.get(PricingService).set(merchantId as never, oca, change);
  const balance = async () =>
    ((await bed.merchant.get(`/merchant/${merchantId}/balance`)).body.balances as Json[]).find((b) => b.currency === 'UYU')!;
  const cents = (value: number) => Math.round(value * 100);
  const movements = async (sourceId: string): Promise<Json[]> =>
    bed.dataSource.query(
      `SELECT type, net::float / 100 AS net, available_on > now() AS pending, drawn_from IS NOT NULL AS drawn
         FROM balance_transaction WHERE source_id = $1 ORDER BY part`,
      [sourceId],
    );
  const refundRows = async (intentId: string) =>
    ((await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[]).filter(
      (r) => r.transactionType === 'REFUND',
    );
  const create = (amount: number, confirm: boolean) =>
    bed.merchant.post('/payment-intent', {
      currency: 'UYU',
      amount,
      payinType: 'DEFAULT',
      externalReference: `draw-${crypto.randomUUID()}`,
      payerId: bed.payerId,
      offSession: true,
      invoiceNumber: 1,
      country: 'URY',
      ...(confirm ? { paymentInstrumentData: { paymentMethodName: 'OCA' }, confirm: true } : {}),
    });

  it('takes a refund of a payment whose net is still pending from that pending net; only the rest comes out of available', async () => {
    await price({ percentage: 3, settlementDelayDays: 2 });
    const before = await balance();
    const intentId = await bed.paidIntent(1220);
    const [charge] = (await bed.merchant.get(`/payin?paymentIntentId=${intentId}`)).body[0].results as Json[];
    const net = charge.netAmount as number;
    expect(cents((await balance()).pending - before.pending)).toBe(cents(net));

    // Within what is pending: all of it pending, at the payment's own availability; available untouched.
    await bed.merchant.post(`/payment-intent/${intentId}/refund`, { requestedRefundAmount: 400 });
    const [first] = await refundRows(intentId);
    expect(await movements(first.transactionId as string)).toEqual([{ type: 'REFUND', net: -400, pending: true, drawn: true }]);
    let now = await balance();
    expect([cents(now.available - before.available), cents(now.pending - before.pending)]).toEqual([0, cents(net) - 40_000]);

    // Beyond it: what is left pending, then the rest at once (two parts of one refund).
    await bed.merchant.post(`/payment-intent/${intentId}/refund`);
    const second = (await refundRows(intentId)).find((r) => r.transactionId !== first.transactionId)!;
    const rest = 1220 - 400;
    const fromPending = cents(net) - 40_000;
    expect(await movements(second.transactionId as string)).toEqual([
      { type: 'REFUND', net: -fromPending / 100, pending: true, drawn: true },
      { type: 'REFUND', net: -(cents(rest) - fromPending) / 100, pending: false, drawn: false },
    ]);
    now = await balance();
    // "Available −1,220 beside pending 1,153" no more: what the payment still had pending paid the refund first.
    expect([cents(now.available - before.available), cents(now.pending - before.pending)]).toEqual([cents(net) - 122_000, 0]);
    // The upcoming chart shows nothing for that day any more.
    expect(((now.upcoming ?? []) as Json[]).reduce((sum, u) => sum + cents(u.amount as number), 0)).toBe(cents(before.pending));
  });

  it('records a manual refund (money the merchant returned itself) without moving any balance money', async () => {
    await price({ percentage: 3, settlementDelayDays: 0 });
    const intentId = await bed.paidIntent(500);
    const before = await balance();
    const pendingRefund = await bed.merchant.post(`/payment-intent/${intentId}/manual-refund`, {
      status: 'MANUAL_REFUND_PENDING',
      requestedRefundAmount: 200,
    });
    expect(pendingRefund.status).toBe(200);
    await bed.merchant.post(`/payment-intent/${intentId}/manual-refund`, { status: 'MANUAL_REFUND_CONFIRMED', requestedRefundAmount: 200 });
    const manual = await refundRows(intentId);
    expect(manual.length).toBeGreaterThan(0);
    for (const row of manual) expect(await movements(row.transactionId as string)).toEqual([]);
    expect(await balance()).toMatchObject({ available: before.available, pending: before.pending });
  });

  it('refuses a payment below the processor’s minimum, at confirm and at initialize, with the minimum; a payment at it goes', async () => {
    // A fixed fee of 50 UYU (3 % and Uruguay's 22 % VAT on the fee): below 63.33 the merchant would net nothing.
    await price({ percentage: 3, fixed: { currency: Currency.UYU, amount: 50 }, settlementDelayDays: 0 });
    const tiny = await create(1, true);
    expect(tiny.status).toBe(400);
    expect(tiny.body).toMatchObject({ errorId: 'Payins:AMOUNT_BELOW_MINIMUM', minimumAmount: 63.33 });
    expect(tiny.body.showMessage.ES).toContain('63.33');
    // Nothing was written: no intent, no payin.
    expect((await bed.merchant.get(`/payin?merchantId=${merchantId}&maxAmount=2`)).body[0].results).toEqual([]);
    expect((await create(63.32, true)).body.errorId).toBe('Payins:AMOUNT_BELOW_MINIMUM');
    const enough = await create(63.33, true);
    expect(enough.body.status).toBe('SUCCEEDED');
    const [row] = (await bed.merchant.get(`/payin?paymentIntentId=${enough.body.paymentIntent.paymentIntentId as string}`)).body[0].results;
    expect(row.netAmount).toBeGreaterThan(0);

    // At initialize (the payer's page of a gateway): the catalog's minimum, 20 UYU, when the fee allows less.
    await price({ percentage: 3, fixed: { currency: Currency.UYU, amount: 0 }, settlementDelayDays: 0 });
    const waiting = await create(15, false);
    const intentId = waiting.body.paymentIntent.paymentIntentId as string;
    const status = (await bed.merchant.get(`/payment-intent/${intentId}`)).body.paymentIntentStatus as string;
    const methods = (await bed.merchant.get(`/payment-intent/${intentId}/payment-methods`)).body
      .paymentIntentAvailablePaymentMethods as Json[];
    const started = await bed.merchant.post(`/payment-intent/${intentId}/initialize`, {
      countryProcessorId: methods.find((m) => m.paymentMethod.paymentMethodName === 'OCA')!.countryProcessorId,
    });
    expect([started.status, started.body.errorId, started.body.minimumAmount]).toEqual([400, 'Payins:AMOUNT_BELOW_MINIMUM', 20]);
    expect((await bed.merchant.get(`/payment-intent/${intentId}`)).body.paymentIntentStatus).toBe(status);
  });
});
