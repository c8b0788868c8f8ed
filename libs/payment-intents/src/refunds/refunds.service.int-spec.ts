import { INestApplicationContext } from '@nestjs/common';
import { BusinessService } from '@pcs/businesses';
import { asPaymentIntentId, Caller, Currency, DomainError, ManualRefundStatus, Money, PayinType } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import { serviceContext, ServiceContext } from '@pcs/testing';
import { DataSource } from 'typeorm';
import { PaymentIntentCreationService } from '../creation/payment-intent-creation.service';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentActivityModule } from '../payment-intent-activity.module';
import { PaymentIntentsModule } from '../payment-intents.module';
import { RefundsService } from './refunds.service';

/** The refunds service with its real collaborators on PostgreSQL (the sandbox gateway answers in process). */
describe('refunds service on PostgreSQL', () => {
  let services: ServiceContext;
  let context: INestApplicationContext;
  let dataSource: DataSource;
  let refunds: RefundsService;
  let caller: Caller;
  let paid: () => Promise<PaymentIntent>;

  beforeAll(async () => {
    services = await serviceContext([PaymentIntentActivityModule, PaymentIntentsModule], { poolSize: 8 });
    context = services.context;
    dataSource = services.dataSource;
    refunds = context.get(RefundsService);
    const business = await context.get(BusinessService).create('Refund services');
    const merchant = await context
      .get(MerchantService)
      .create({ businessId: business.businessId, name: 'Shop', countryIso3: 'URY', approve: true });
    caller = { credentialId: 'c', businessId: business.businessId, merchantId: merchant.merchantId };
    const payer = await context.get(PayerService).create(caller, { firstName: 'Refund', lastName: 'Target' });
    const instrument = await context
      .get(PaymentInstrumentService)
      .create(caller, { payerId: payer.payerId, paymentMethodName: 'VISA', country: 'URY' });
    // 110 UYU at 10% VAT (10 of tax) plus a 11 UYU tip: 121 collected off-session.
    paid = () =>
      context.get(PaymentIntentCreationService).create(caller, {
        amount: Money.ofMinor(11000, Currency.UYU),
        tipAmount: Money.ofMinor(1100, Currency.UYU),
        vatPercentage: 10,
        payinType: PayinType.DEFAULT,
        externalReference: 'refund-int',
        payerId: payer.payerId,
        offSession: true,
        invoiceNumber: 1,
        country: 'URY',
        paymentInstrumentId: instrument.instrument.id,
        confirm: true,
      });
  });
  afterAll(() => services.close());

  const refundRows = (
    paymentIntentId: string,
  ): Promise<{ amount: string; subtotal_amount: string; tax_amount: string; tip_amount: string; status: string; concept_code: string }[]> =>
    dataSource.query(
      `SELECT amount, subtotal_amount, tax_amount, tip_amount, status, concept_code FROM payin WHERE payment_intent_id = $1 AND transaction_type = 'REFUND' ORDER BY created_at`,
      [paymentIntentId],
    );

  it('refunds partially then totally, each record split into tip, tax and subtotal that add back to it', async () => {
    const intent = await paid();
    expect(intent.status).toBe('SUCCEEDED');
    const partial = await refunds.refund(caller, intent.id, Money.ofMinor(5000, Currency.UYU));
    expect(partial.snapshot()).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 5000 });
    const total = await refunds.refund(caller, intent.id);
    expect(total.snapshot()).toMatchObject({ status: 'REFUNDED', refundedAmount: 12100 });
    const rows = await refundRows(intent.id);
    expect(rows.map((r) => [Number(r.amount), r.status])).toEqual([
      [5000, 'APPROVED'],
      [7100, 'APPROVED'],
    ]);
    for (const r of rows) expect(Number(r.subtotal_amount) + Number(r.tax_amount) + Number(r.tip_amount)).toBe(Number(r.amount));
    // 5000 of 12100: the tip's share is floor(5000 × 1100 / 12100) = 454, the tax's floor(4546 × 1000 / 11000) = 413.
    expect([Number(rows[0].tip_amount), Number(rows[0].tax_amount)]).toEqual([454, 413]);
  });

  it('refuses more than is refundable and writes nothing', async () => {
    const intent = await paid();
    const before = (await refundRows(intent.id)).length;
    await expect(refunds.refund(caller, intent.id, Money.ofMinor(12101, Currency.UYU))).rejects.toMatchObject({
      code: 'REFUND_AMOUNT_EXCEEDS_AVAILABLE',
    });
    expect(await refundRows(intent.id)).toHaveLength(before);
    expect(await refunds.refund(caller, intent.id, Money.ofMinor(12100, Currency.USD)).catch((e: DomainError) => e.code)).toBe(
      'REFUND_AMOUNT_EXCEEDS_AVAILABLE',
    );
  });

  it('lets twelve concurrent refunds of 11 UYU take exactly what was collected', async () => {
    const intent = await paid();
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () => refunds.refund(caller, intent.id, Money.ofMinor(1100, Currency.UYU))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(11);
    const [row] = await dataSource.query(
      `SELECT refunded_amount, received_amount, status FROM payment_intent WHERE payment_intent_id = $1`,
      [intent.id],
    );
    expect(row).toMatchObject({ refunded_amount: '12100', received_amount: '12100', status: 'REFUNDED' });
  });

  it('reserves a pending manual refund, confirms it once, and recognises a retried request by its operation id', async () => {
    const intent = await paid();
    const op = asPaymentIntentId('7d3c4b2a-1111-4111-8111-000000000001');
    await refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_PENDING, Money.ofMinor(2000, Currency.UYU));
    await refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_CONFIRMED, undefined, op);
    // The same request again: recognised, nothing more is confirmed or recorded.
    const again = await refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_CONFIRMED, undefined, op);
    expect(again.snapshot().refundedAmount).toBe(2000);
    expect((await refundRows(intent.id)).map((r) => [r.concept_code, r.status])).toEqual([['MANUAL_REFUND', 'APPROVED']]);
  });

  it('makes one refund for one operation id however often it is retried', async () => {
    const intent = await paid();
    const op = '7d3c4b2a-2222-4222-8222-000000000002';
    await Promise.all([1, 2, 3].map(() => refunds.refund(caller, intent.id, Money.ofMinor(3000, Currency.UYU), op).catch(() => undefined)));
    await refunds.refund(caller, intent.id, Money.ofMinor(3000, Currency.UYU), op);
    expect((await refundRows(intent.id)).map((r) => Number(r.amount))).toEqual([3000]);
  });
});
