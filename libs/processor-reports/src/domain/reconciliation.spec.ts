import { asBusinessId, asMerchantId, asPaymentIntentId, Currency, TransactionStatus } from '@pcs/kernel';
import type { ReportLine } from '@pcs/gateways';
import type { PayinProps } from '@pcs/payins';
import { reconcile } from './reconciliation';

const day = new Date('2026-11-24T12:00:00Z');
const window = { from: new Date('2026-11-24T03:00:00Z'), to: new Date('2026-11-25T03:00:00Z') };
const record = (over: Partial<PayinProps>): PayinProps =>
  ({
    transactionId: 'a0000000-0000-4000-8000-000000000001',
    businessId: asBusinessId('b'),
    merchantId: asMerchantId('m'),
    paymentIntentId: asPaymentIntentId('i1'),
    transactionType: 'PAYIN',
    status: TransactionStatus.APPROVED,
    currency: Currency.ARS,
    amount: 10_000,
    receivedAmount: 10_000,
    processorFeeAmount: 399,
    externalId: '111',
    liquidationDate: day,
    ...over,
  }) as PayinProps;
const line = (over: Partial<ReportLine>): ReportLine => ({
  recordType: 'release',
  description: 'payment',
  sourceId: '111',
  externalReference: 'a0000000-0000-4000-8000-000000000001',
  date: day,
  currency: Currency.ARS,
  gross: 10_000,
  fee: 399,
  ...over,
});

describe('reconciling a processor report (contract §19)', () => {
  it('matches payments and refunds by reference, and counts other lines as listed', () => {
    const charge = record({});
    const refund = record({ transactionId: 'r1', transactionType: 'REFUND', amount: 2_500, receivedAmount: 2_500, externalId: '999' });
    const result = reconcile(
      [
        line({ recordType: 'initial_available_balance', description: '', sourceId: '', externalReference: null, gross: null }),
        line({}),
        line({ description: 'refund', gross: -2_500, fee: 0 }),
        line({ recordType: 'total', description: '' }),
      ],
      [charge, refund],
      window,
    );
    expect(result).toEqual({ matched: 2, ignored: 2, discrepancies: [] });
  });

  it('finds an amount or fee that differs, a line we have no record of, and a record the report lacks', () => {
    const charges = [
      record({ transactionId: 'a1', externalId: '1' }),
      record({ transactionId: 'a2', externalId: '2' }),
      record({ transactionId: 'a3', externalId: '3' }),
      // Released outside the window and not in the report: not missing there.
      record({ transactionId: 'a4', externalId: '4', liquidationDate: new Date('2026-11-20T03:00:00Z') }),
    ];
    const result = reconcile(
      [
        line({ sourceId: '1', externalReference: 'a1', gross: 9_999 }),
        line({ sourceId: '2', externalReference: 'a2', fee: 400 }),
        line({ sourceId: '77', externalReference: 'zz' }),
      ],
      charges,
      window,
    );
    expect(result.matched).toBe(0);
    expect(result.discrepancies.map((d) => [d.kind, d.externalId])).toEqual([
      ['AMOUNT_MISMATCH', 'a1'],
      ['FEE_MISMATCH', 'a2'],
      ['MISSING_HERE', 'zz'],
      ['MISSING_THERE', 'a3'],
    ]);
    expect(result.discrepancies[0]).toMatchObject({
      ours: { amount: 10_000, externalId: '1' },
      theirs: { amount: 9_999, externalId: '1' },
    });
  });

  it('matches a line found by the processor’s id when the reference is absent, and a line twice only once', () => {
    const result = reconcile([line({ externalReference: null }), line({ externalReference: null })], [record({})], window);
    expect(result.matched).toBe(1);
    expect(result.discrepancies.map((d) => d.kind)).toEqual(['MISSING_HERE']);
  });
});
