import { asBusinessId, asMerchantId, asPaymentIntentId, Currency, TransactionStatus } from '@pcs/kernel';
import type { ReportLine } from '@pcs/gateways';
import type { PayinProps } from '@pcs/payments';
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
  financingFee: null,
  taxes: null,
  netCredit: null,
  netDebit: null,
  ...over,
});

describe('reconciling a processor report (contracts §19, §23)', () => {
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
    expect(result).toMatchObject({ matched: 2, ignored: 2, discrepancies: [] });
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

  it('compares the processor’s fee without its financing fee, and the financing fee apart', () => {
    const financed = record({ processorFeeAmount: 399, processorFinancingFeeAmount: 550 });
    const told = reconcile([line({ financingFee: 550 })], [financed], window);
    expect(told.matched).toBe(1);
    const untold = reconcile([line({ financingFee: 550 })], [record({ processorFinancingFeeAmount: null })], window);
    expect(untold.discrepancies.map((d) => d.kind)).toEqual(['FEE_MISMATCH']);
    expect(untold.discrepancies[0].theirs).toMatchObject({ fee: 399, financingFee: 550 });
    // No financing fee on either side agrees.
    expect(reconcile([line({ financingFee: 0 })], [record({})], window).matched).toBe(1);
  });

  it('compares holds and releases of disputed money with our disputes of that payment', () => {
    // Released before the window: only its dispute's lines are in this report.
    const charge = record({ liquidationDate: new Date('2026-11-20T03:00:00Z') });
    const dispute = {
      disputeId: 'd1',
      chargeId: charge.transactionId,
      status: 'NEEDS_RESPONSE' as const,
      amount: 10_000,
      currency: Currency.ARS,
    };
    const block = line({ recordType: 'block', description: 'chargeback', gross: -10_000, fee: null });
    const unblock = line({ recordType: 'unblock', description: 'chargeback', gross: 10_000, fee: null });
    const taken = line({ recordType: 'release', description: 'chargeback', gross: -10_000, fee: null });
    const otherReserve = line({ recordType: 'block', description: 'reserve_for_payment', gross: -500, fee: null });
    // None of ours: the processor holds money for a dispute we do not know.
    expect(reconcile([block], [charge], window).discrepancies.map((d) => d.kind)).toEqual(['MISSING_HERE']);
    expect(reconcile([block, taken, otherReserve], [charge], window, [dispute])).toMatchObject({ matched: 2, ignored: 1 });
    // Given back while ours is not won; a hold of another amount; taken for good while ours is won.
    expect(reconcile([unblock], [charge], window, [dispute]).discrepancies.map((d) => [d.kind, d.externalId])).toEqual([
      ['DISPUTE_MISMATCH', 'd1'],
    ]);
    expect(reconcile([line({ ...block, gross: -4_000 })], [charge], window, [dispute]).discrepancies[0].kind).toBe('DISPUTE_MISMATCH');
    expect(reconcile([taken], [charge], window, [{ ...dispute, status: 'WON' }]).discrepancies[0].kind).toBe('DISPUTE_MISMATCH');
    expect(reconcile([unblock], [charge], window, [{ ...dispute, status: 'WON' }]).matched).toBe(1);
    // A lost claim a refund of the processor ended: its money is given back, then leaves as that refund.
    const settling = record({
      transactionId: 'r9',
      transactionType: 'REFUND',
      amount: 10_000,
      settlesDisputeId: 'd1',
      liquidationDate: null,
    });
    expect(reconcile([unblock], [charge, settling], window, [{ ...dispute, status: 'LOST' }]).matched).toBe(1);
  });

  it('totals every money column of the window’s lines, its own totals left out', () => {
    const result = reconcile(
      [
        line({ gross: 10_000, fee: 399, financingFee: 100, taxes: 300, netCredit: 9_201, netDebit: 0 }),
        line({ description: 'refund', gross: -2_500, fee: 0, financingFee: 0, taxes: 0, netCredit: 0, netDebit: 2_500 }),
        line({ recordType: 'total', description: '', gross: null, fee: null, netCredit: 6_701, netDebit: 0 }),
      ],
      [record({ processorFinancingFeeAmount: 100 })],
      window,
    );
    expect(result.totals).toEqual({
      currency: Currency.ARS,
      gross: 7_500,
      fee: 399,
      financingFee: 100,
      taxes: 300,
      netCredit: 9_201,
      netDebit: 2_500,
    });
  });
});
