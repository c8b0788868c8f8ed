import { INestApplicationContext } from '@nestjs/common';
import { BusinessService } from '@pcs/businesses';
import { asMerchantId, asPaymentIntentId, Caller, Currency, DomainError, ManualRefundStatus, Money, PayinType } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { PaymentInstrumentService } from '@pcs/payment-instruments';
import { serviceContext, ServiceContext } from '@pcs/testing';
import * as crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { PaymentIntentCreationService } from '../creation/payment-intent-creation.service';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentActivityModule } from '../payment-intent-activity.module';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PaymentsModule } from '../payments.module';
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
    services = await serviceContext([PaymentIntentActivityModule, PaymentsModule], { poolSize: 8 });
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
  afterEach(() => jest.restoreAllMocks());

  /**
   * Runs `meanwhile(n)` after the n-th read of an intent for a refund (the
   * read every refund decides on), before that refund writes: how a test
   * makes refunds interleave the way concurrent requests may.
   */
  const afterEachRead = (meanwhile: (n: number) => Promise<void>) => {
    const repository = context.get(PaymentIntentRepository);
    const read = repository.findForRefund.bind(repository);
    const locks: boolean[] = [];
    jest.spyOn(repository, 'findForRefund').mockImplementation(async (...args: Parameters<typeof read>) => {
      const found = await read(...args);
      locks.push(args[4] ?? false);
      await meanwhile(locks.length);
      return found;
    });
    return locks;
  };
  /** A barrier: resolves once `parties` callers are waiting at it. */
  const barrier = (parties: number) => {
    let waiting = 0;
    const all = new Promise<void>((resolve) => {
      const check = () => (waiting >= parties ? resolve() : setTimeout(check, 5));
      check();
    });
    return () => {
      waiting += 1;
      return all;
    };
  };

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
    const partial = await refunds.refund(caller, intent.id, 50);
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
    await expect(refunds.refund(caller, intent.id, 121.01)).rejects.toMatchObject({
      code: 'REFUND_AMOUNT_EXCEEDS_AVAILABLE',
    });
    expect(await refundRows(intent.id)).toHaveLength(before);
    // An amount is read in the intent's currency: more decimals than UYU has is refused before anything is reserved.
    expect(await refunds.refund(caller, intent.id, 1.001).catch((e: DomainError) => e.code)).toBe('INVALID_REQUEST');
    expect(await refundRows(intent.id)).toHaveLength(before);
  });

  it('lets twelve concurrent refunds of 11 UYU take exactly what was collected', async () => {
    const intent = await paid();
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => refunds.refund(caller, intent.id, 11)));
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
    await refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_PENDING, 20);
    await refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_CONFIRMED, undefined, op);
    // The same request again: recognised, nothing more is confirmed or recorded.
    const again = await refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_CONFIRMED, undefined, op);
    expect(again.snapshot().refundedAmount).toBe(2000);
    expect((await refundRows(intent.id)).map((r) => [r.concept_code, r.status])).toEqual([['MANUAL_REFUND', 'APPROVED']]);
  });

  it('makes one refund for one operation id however often it is retried', async () => {
    const intent = await paid();
    const op = '7d3c4b2a-2222-4222-8222-000000000002';
    await Promise.all([1, 2, 3].map(() => refunds.refund(caller, intent.id, 30, op).catch(() => undefined)));
    await refunds.refund(caller, intent.id, 30, op);
    expect((await refundRows(intent.id)).map((r) => Number(r.amount))).toEqual([3000]);
  });

  it('decides two refunds that read the same version once each: one writes, the other reads again and refunds what is left', async () => {
    const intent = await paid();
    const bothRead = barrier(2);
    const reads = afterEachRead((n) => (n <= 2 ? bothRead() : Promise.resolve()));
    const [first, second] = await Promise.all([refunds.refund(caller, intent.id, 100), refunds.refund(caller, intent.id, 21)]);
    // Two reads before either wrote, then the loser's second read: three in all, none of them locked.
    expect(reads).toEqual([false, false, false]);
    expect([first.snapshot().refundedAmount, second.snapshot().refundedAmount].sort((a, b) => a - b)).toEqual(
      first.snapshot().refundedAmount === 10000 ? [10000, 12100] : [2100, 12100],
    );
    const [row] = await dataSource.query(`SELECT refunded_amount, status FROM payment_intent WHERE payment_intent_id = $1`, [intent.id]);
    expect(row).toMatchObject({ refunded_amount: '12100', status: 'REFUNDED' });
    expect((await refundRows(intent.id)).map((r) => [Number(r.amount), r.status]).sort()).toEqual([
      [10000, 'APPROVED'],
      [2100, 'APPROVED'],
    ]);
    // Each refund's events once, numbered without a gap or a repeat in the intent's sequence.
    const events: { type: string; sequence: number }[] = await dataSource.query(
      `SELECT type, sequence FROM event WHERE subject_id = $1 ORDER BY sequence`,
      [intent.id],
    );
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === 'refund.created')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'refund.succeeded')).toHaveLength(2);
  });

  it('refuses the second of two total refunds that read the same version, once it has read again', async () => {
    const intent = await paid();
    const bothRead = barrier(2);
    afterEachRead((n) => (n <= 2 ? bothRead() : Promise.resolve()));
    const results = await Promise.allSettled([refunds.refund(caller, intent.id), refunds.refund(caller, intent.id)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as DomainError).code : 'ok')).sort()).toEqual([
      'PAYMENT_INTENT_INVALID_STATE',
      'ok',
    ]);
    expect((await refundRows(intent.id)).map((r) => Number(r.amount))).toEqual([12100]);
  });

  it('takes the intent for update when it keeps changing under a refund, and refunds once', async () => {
    const intent = await paid();
    // Every unlocked read is followed by a change of the intent before this refund writes.
    const reads = afterEachRead(async (n) => {
      if (!reads[n - 1]) await dataSource.query(`UPDATE payment_intent SET updated_at = now() WHERE payment_intent_id = $1`, [intent.id]);
    });
    const refunded = await refunds.refund(caller, intent.id, 5);
    expect(reads).toEqual([false, false, false, true]);
    expect(refunded.snapshot()).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 500 });
    expect((await refundRows(intent.id)).map((r) => [Number(r.amount), r.status])).toEqual([[500, 'APPROVED']]);
  });

  it('confirms a pending manual refund once when two confirmations read it: the other records and confirms the rest', async () => {
    const intent = await paid();
    await refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_PENDING, 20);
    const bothRead = barrier(2);
    const reads = afterEachRead((n) => (n <= 2 ? bothRead() : Promise.resolve()));
    await Promise.all([
      refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_CONFIRMED),
      refunds.manualRefund(caller, intent.id, ManualRefundStatus.MANUAL_REFUND_CONFIRMED),
    ]);
    expect(reads).toHaveLength(3);
    expect((await refundRows(intent.id)).map((r) => [r.concept_code, Number(r.amount), r.status])).toEqual([
      ['MANUAL_REFUND', 2000, 'APPROVED'],
      ['MANUAL_REFUND', 10100, 'APPROVED'],
    ]);
    const [row] = await dataSource.query(`SELECT refunded_amount, status FROM payment_intent WHERE payment_intent_id = $1`, [intent.id]);
    expect(row).toMatchObject({ refunded_amount: '12100', status: 'REFUNDED' });
  });

  it('names on a refund the payer the collection named, and writes nothing for an intent of another merchant', async () => {
    const intent = await paid();
    await refunds.refund(caller, intent.id, 1);
    const [row] = await dataSource.query(
      `SELECT person_first_name, person_last_name FROM payin WHERE payment_intent_id = $1 AND transaction_type = 'REFUND'`,
      [intent.id],
    );
    expect(row).toEqual({ person_first_name: 'Refund', person_last_name: 'Target' });
    const stranger = { ...caller, merchantId: asMerchantId(crypto.randomUUID()) };
    await expect(refunds.refund(stranger, intent.id, 1)).rejects.toMatchObject({ code: 'PAYMENT_INTENT_NOT_FOUND' });
    await expect(refunds.manualRefund(stranger, intent.id, ManualRefundStatus.MANUAL_REFUND_PENDING, 1)).rejects.toMatchObject({
      code: 'PAYMENT_INTENT_NOT_FOUND',
    });
    expect(await refundRows(intent.id)).toHaveLength(1);
  });
});
