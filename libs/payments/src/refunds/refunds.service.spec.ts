import type { CatalogService } from '@pcs/catalog';
import type { RuntimeSettings } from '@pcs/config';
import type { GatewayNotice, GatewayRegistry, PaymentGateway, ProcessorRefund, RefundOutcome, RefundRequest } from '@pcs/gateways';
import { ProcessorAmountError } from '@pcs/gateways';
import type { BalancesService } from '@pcs/settlement';
import { asBusinessId, asMerchantId, asPaymentIntentId, Caller, Currency, DomainError, Money, Transaction } from '@pcs/kernel';
import type { MerchantService } from '@pcs/merchants';
import type { PayerService } from '@pcs/payers';
import type { PaymentInstrumentService } from '@pcs/payment-instruments';
import { PaymentAttemptParties } from '../attempts/payment-attempt-parties';
import { Payin } from '../domain/payin';
import { PaymentIntent } from '../domain/payment-intent';
import {
  anAttempt,
  anIntent,
  CALLER,
  INTENT_ID,
  MERCHANT_ID,
  MemoryIntents,
  MemoryPayins,
  MemoryUnitOfWork,
  NOW,
  unused,
} from '../../test/in-memory-ports.fixture';
import { RefundsService } from './refunds.service';
import { ProcessorRefunds } from './processor-refunds.service';
import { ProcessorFinding } from '../domain/processor-finding';
import { ProcessorFindingRepository } from '../ledger/processor-finding.repository';
import { IntentDisputes } from '../disputes/intent-disputes.service';

/**
 * The refunds services (ours, and the processor's own refunds) on their ports
 * alone (no database: the ports carry no ORM): the context's ports in memory
 * (in-memory-ports.fixture.ts), which keep the aggregate's rule — `recordRefunds`
 * writes only while the intent is the version read — and a gateway stand-in. What is checked is the service's
 * own logic: how much it reserves, that it asks the collection's gateway with
 * the refund's id as the idempotency key, that a retried operation carries
 * the first refund on, that a rejection gives the amount back, and that a
 * write that lost a race is decided again on a fresh read; that a refund made
 * at the processor is recorded once, and what it took beyond the refundable
 * reported once. The same rules over PostgreSQL, with real concurrency:
 * refunds.service.int-spec.ts, test/refunds-idempotency.e2e-spec.ts and
 * test/funds-flow.e2e-spec.ts.
 */
const [now, intentId, merchantId, caller] = [NOW, INTENT_ID, MERCHANT_ID, CALLER];

/**
 * A processor that answers each refund as told, remembering what it was asked, and lists on the
 * payment the refunds `listed` holds (those made in its panel, for a refund to read first).
 */
function gatewayAnswering(answer: (request: RefundRequest) => RefundOutcome) {
  const asked: RefundRequest[] = [];
  const listed: ProcessorRefund[] = [];
  const gateway = {
    name: 'SANDBOX',
    refund: (request: RefundRequest) => {
      asked.push(request);
      return Promise.resolve(answer(request));
    },
    readPayment: (_merchantId: string, payinId: string): Promise<GatewayNotice> =>
      Promise.resolve(
        listed.length === 0
          ? { kind: 'IGNORED' }
          : {
              kind: 'CHARGE',
              payinId,
              event: { gateway: 'SANDBOX', eventId: `payment:${payinId}`, reference: 'sbx-charge-1', outcome: 'APPROVED' },
              refunds: [...listed],
            },
      ),
  } as unknown as PaymentGateway;
  return { asked, listed, gateway };
}

/** The balance's dispute debits, as the settlement context books them: the target, once per difference. */
class MemoryDisputeDebits {
  readonly debited = new Map<string, number>();
  debitDispute(_tx: Transaction, dispute: { disputeId: string; target: number }): Promise<number> {
    const difference = dispute.target - (this.debited.get(dispute.disputeId) ?? 0);
    this.debited.set(dispute.disputeId, dispute.target);
    return Promise.resolve(difference);
  }
}

function charged(): { intent: PaymentIntent; charge: Payin } {
  const intent = PaymentIntent.restore({ ...anIntent().snapshot(), status: 'SUCCEEDED', receivedAmount: 122000, refundedAmount: 0 });
  const charge = anAttempt(intent);
  charge.bindGatewayReference('sbx-charge-1', null, now);
  charge.approve('approved', now, {
    feeAmount: 3050,
    feeTaxAmount: 671,
    availableOn: now,
    liquidationSource: 'PROCESSOR',
    fundsFlow: 'PLATFORM',
  });
  return { intent, charge };
}

function serviceWith(answer: (request: RefundRequest) => RefundOutcome = () => ({ status: 'APPROVED', reference: 'sbx-refund' })) {
  const ledger = new MemoryPayins();
  const intents = new MemoryIntents(ledger);
  const { intent, charge } = charged();
  intents.put(intent);
  ledger.put(charge);
  const { asked, listed, gateway } = gatewayAnswering(answer);
  const registry = { get: (name: string) => (name === 'SANDBOX' ? gateway : undefined) } as unknown as GatewayRegistry;
  const catalog = {
    findCountryProcessors: (ids: string[]) => Promise.resolve(ids.map(() => ({ paymentMethod: { name: 'VISA' } }))),
  } as unknown as CatalogService;
  const settings = { gateway: { reconcileAfterSeconds: 300 } } as unknown as RuntimeSettings;
  const merchants = { findById: () => Promise.resolve({ merchantName: 'Tienda Pocitos', account: { serviceAccount: null } }) };
  const parties = new PaymentAttemptParties(
    merchants as unknown as MerchantService,
    {} as PayerService,
    {} as PaymentInstrumentService,
    settings,
  );
  const payins = ledger;
  const balances = new MemoryDisputeDebits();
  const disputes = new IntentDisputes(intents, payins, balances as unknown as BalancesService);
  const findings = new MemoryFindings();
  const processorRefunds = new ProcessorRefunds(new MemoryUnitOfWork(), intents, payins, findings, parties, disputes);
  const service = new RefundsService(
    new MemoryUnitOfWork(),
    intents,
    payins,
    parties,
    registry,
    catalog,
    settings,
    processorRefunds,
    disputes,
  );
  const refunds = () => ledger.all().filter((p) => p.snapshot().transactionType === 'REFUND');
  return { service, intents, ledger, payins, parties, asked, listed, refunds, balances, findings, processorRefunds };
}

/** A refund the processor lists as made (approved), in UYU minor units. */
const atProcessor = (reference: string, amount: number) => ({ reference, amount, currency: Currency.UYU, status: 'APPROVED' as const });

describe('RefundsService (on its ports, in memory)', () => {
  it('refunds what is asked through the collection’s gateway, the refund’s id its idempotency key there, and records the approval', async () => {
    const { service, asked, refunds } = serviceWith();
    const intent = await service.refund(caller, intentId, 200, 'op-1');
    expect(intent.snapshot()).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 20000 });
    expect(asked).toEqual([
      expect.objectContaining({
        refundId: 'op-1',
        chargeId: 'charge-1',
        chargeReference: 'sbx-charge-1',
        amount: 20000,
        paymentMethod: 'VISA',
      }),
    ]);
    expect(refunds().map((r) => r.snapshot())).toEqual([
      expect.objectContaining({ transactionId: 'op-1', amount: 20000, status: 'APPROVED', externalId: 'sbx-refund', taxAmount: 3606 }),
    ]);
  });

  it('refunds everything still refundable when no amount is given, and refuses a refund beyond it', async () => {
    const { service, asked } = serviceWith();
    await service.refund(caller, intentId, 1000);
    const all = await service.refund(caller, intentId);
    expect(all.snapshot()).toMatchObject({ status: 'REFUNDED', refundedAmount: 122000 });
    expect(asked.map((r) => r.amount)).toEqual([100000, 22000]);
    const refused = await service.refund(caller, intentId, 0.01).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'PAYMENT_INTENT_INVALID_STATE' });
    expect(asked).toHaveLength(2);
  });

  it('carries a retried operation’s refund on instead of making a second one', async () => {
    const { service, asked, refunds } = serviceWith();
    await service.refund(caller, intentId, 100, 'op-2');
    const again = await service.refund(caller, intentId, 100, 'op-2');
    expect(again.snapshot().refundedAmount).toBe(10000);
    expect(refunds()).toHaveLength(1);
    expect(asked).toHaveLength(1);
  });

  it('gives the amount back when the gateway rejects the refund', async () => {
    const { service, refunds } = serviceWith(() => ({
      status: 'REJECTED',
      reference: 'sbx-r',
      error: 'insufficient funds at the processor',
    }));
    const intent = await service.refund(caller, intentId, 300);
    expect(intent.snapshot()).toMatchObject({ status: 'SUCCEEDED', refundedAmount: 0 });
    expect(refunds().map((r) => r.snapshot().status)).toEqual(['REJECTED']);
  });

  it('decides again on a fresh read when the intent changed between its read and its write, never refunding past what was collected', async () => {
    const { service, intents, asked } = serviceWith();
    // Another request refunds 1,000.00 of the 1,220.00 while this one decides on the first read.
    intents.meanwhile = () => intents.change(intentId, (other) => other.reserveRefund(Money.ofMinor(100000, Currency.UYU), now));
    const refused = await service.refund(caller, intentId, 300).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'REFUND_AMOUNT_EXCEEDS_AVAILABLE' });
    expect(asked).toHaveLength(0);
    expect(intents.read(intentId)!.snapshot().refundedAmount).toBe(100000);
  });

  it('answers an intent it cannot find, or another tenant’s, as not found', async () => {
    const { service, asked } = serviceWith();
    const missing = await service.refund(caller, asPaymentIntentId('00000000-0000-4000-8000-000000000000'), 1).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'PAYMENT_INTENT_NOT_FOUND' });
    const stranger: Caller = { credentialId: 'c-2', businessId: asBusinessId('b-2'), merchantId: null };
    expect(await service.refund(stranger, intentId, 1).catch((e: unknown) => e)).toMatchObject({ code: 'PAYMENT_INTENT_NOT_FOUND' });
    const sibling: Caller = { ...caller, merchantId: asMerchantId('another-merchant-of-b-1') };
    expect(await service.refund(sibling, intentId, 1).catch((e: unknown) => e)).toMatchObject({ code: 'PAYMENT_INTENT_NOT_FOUND' });
    expect(asked).toHaveLength(0);
  });

  it('reads the processor’s refunds first and refunds only what it still holds, with an explicit amount (contract §28)', async () => {
    const { service, asked, listed, refunds } = serviceWith();
    // 300.00 refunded in the processor’s panel, its notification not heard yet.
    listed.push({ reference: 'panel-300', amount: 30000, currency: Currency.UYU, status: 'APPROVED' });
    const intent = await service.refund(caller, intentId);
    expect(asked.map((r) => r.amount)).toEqual([92000]);
    expect(intent.snapshot()).toMatchObject({ status: 'REFUNDED', refundedAmount: 122000 });
    expect(refunds().map((r) => [r.snapshot().origin, r.snapshot().amount, r.snapshot().status])).toEqual([
      ['PROCESSOR', 30000, 'APPROVED'],
      ['API', 92000, 'APPROVED'],
    ]);
    // Read again before a second refund, the panel’s refund is known by its reference: nothing is recorded twice.
    await expect(service.refund(caller, intentId, 1)).rejects.toMatchObject({ code: 'PAYMENT_INTENT_INVALID_STATE' });
    expect(refunds()).toHaveLength(2);
  });

  it('settles ours the processor lists as refused before deciding a new refund, which may then ask for what that one held', async () => {
    let answer: RefundOutcome = { status: 'PENDING', reference: 'sbx-pending-1' };
    const { service, asked, listed, ledger } = serviceWith(() => answer);
    await service.refund(caller, intentId, 1000, 'first');
    // The processor refused it; its notification was lost. A refund of everything reads that first.
    listed.push({ reference: 'sbx-pending-1', amount: 100000, currency: Currency.UYU, status: 'REJECTED' });
    answer = { status: 'APPROVED', reference: 'sbx-all' };
    const intent = await service.refund(caller, intentId, undefined, 'all');
    expect(ledger.read('first')!.snapshot().status).toBe('REJECTED');
    expect(asked.map((r) => r.amount)).toEqual([100000, 122000]);
    expect(intent.snapshot()).toMatchObject({ status: 'REFUNDED', refundedAmount: 122000 });
  });

  it('fails with PROCESSOR_ANSWER_UNREADABLE when the processor’s answer has no exact amount, booking nothing and keeping the refund pending', async () => {
    const { service, refunds, intents } = serviceWith(() => {
      throw new ProcessorAmountError('MERCADO_PAGO', 'refund 77 amount 1220.50000000000000001 is not an amount in UYU');
    });
    await expect(service.refund(caller, intentId, 500, 'unreadable')).rejects.toMatchObject({
      code: 'PROCESSOR_ANSWER_UNREADABLE',
    });
    // Reserved (as any pending refund) and waiting for reconciliation to ask again: not approved, nothing booked.
    expect(refunds().map((r) => [r.snapshot().amount, r.snapshot().status])).toEqual([[50000, 'PENDING']]);
    expect(intents.read(intentId)!.snapshot().refundedAmount).toBe(50000);
  });

  it('books what the processor says it refunded when that is not what was asked', async () => {
    const { service, refunds } = serviceWith((request) => ({ status: 'APPROVED', reference: 'sbx-r', amount: request.amount - 500 }));
    const intent = await service.refund(caller, intentId, 100);
    expect(refunds().map((r) => [r.snapshot().amount, r.snapshot().status])).toEqual([[9500, 'APPROVED']]);
    expect(intent.snapshot()).toMatchObject({ refundedAmount: 9500 });
  });

  it('brings an open dispute’s debit to what the processor takes when a refund there is approved, and not when one is rejected', async () => {
    const { service, intents, balances, ledger } = serviceWith(() => ({ status: 'PENDING', reference: 'sbx-pending' }));
    await service.refund(caller, intentId, 300, 'ours');
    await service.refund(caller, intentId, 100, 'theirs-rejected');
    // The payer's bank takes the whole 1,220.00 back while both wait at the processor: the dispute debits all of it (pending refunds moved nothing).
    intents.change(intentId, (intent) => intent.recordDispute({ disputeId: 'dp-1', status: 'NEEDS_RESPONSE', amount: 122000 }, now));
    balances.debited.set('dp-1', 122000);
    const settle = (id: string, status: 'APPROVED' | 'REJECTED') =>
      service.settleFromGateway(ledger.read(id)!, 'SANDBOX', { kind: 'REFUND', refundId: id, status, reference: `sbx-${id}` });
    await settle('theirs-rejected', 'REJECTED');
    expect(balances.debited.get('dp-1')).toBe(122000);
    // Ours approved: the processor refunded 300.00 of it, so its chargeback takes 920.00 (the refund's REFUND debits the 300.00).
    await settle('ours', 'APPROVED');
    expect(balances.debited.get('dp-1')).toBe(92000);
  });

  it('keeps refundedAmount exact when a processor’s refund lands while ours is pending and ours is then rejected', async () => {
    const { service, processorRefunds, intents, ledger } = serviceWith(() => ({ status: 'PENDING', reference: 'sbx-pending' }));
    await service.refund(caller, intentId, 280, 'ours');
    // 800.00 refunded in the processor's panel while ours (280.00) waits: both count until the processor answers ours.
    expect(await processorRefunds.apply(merchantId, 'SANDBOX', 'charge-1', [atProcessor('panel-800', 80000)])).toBe('applied');
    expect(intents.read(intentId)!.snapshot().refundedAmount).toBe(108000);
    await service.settleFromGateway(ledger.read('ours')!, 'SANDBOX', {
      kind: 'REFUND',
      refundId: 'ours',
      status: 'REJECTED',
      reference: 'sbx-pending',
      error: 'nothing left to refund',
    });
    expect(intents.read(intentId)!.snapshot()).toMatchObject({ refundedAmount: 80000, status: 'PARTIALLY_REFUNDED' });
    expect(intents.read(intentId)!.refundable.minor).toBe(42000);
  });

  it('settles our refunds the processor lists as done or refused (their notification lost), and leaves those it still works on', async () => {
    let n = 0;
    const { service, intents, ledger } = serviceWith(() => ({ status: 'PENDING', reference: `sbx-pending-${++n}` }));
    await service.refund(caller, intentId, 100, 'first');
    await service.refund(caller, intentId, 200, 'second');
    await service.refund(caller, intentId, 300, 'third');
    expect(intents.read(intentId)!.snapshot().refundedAmount).toBe(60000);
    const listed = [
      { ...atProcessor('sbx-pending-1', 10000) },
      { ...atProcessor('sbx-pending-2', 20000), status: 'REJECTED' as const },
      { ...atProcessor('sbx-pending-3', 30000), status: 'PENDING' as const },
    ];
    // Another merchant's or another gateway's payment, or a refund's id for the charge's: nothing settled.
    expect(await service.settleListed('another-merchant', 'SANDBOX', 'charge-1', listed)).toBe(0);
    expect(await service.settleListed(merchantId, 'MERCADO_PAGO', 'charge-1', listed)).toBe(0);
    expect(await service.settleListed(merchantId, 'SANDBOX', 'first', listed)).toBe(0);
    expect(ledger.read('first')!.snapshot().status).toBe('PENDING');

    expect(await service.settleListed(merchantId, 'SANDBOX', 'charge-1', listed)).toBe(2);
    expect(ledger.read('first')!.snapshot().status).toBe('APPROVED');
    expect(ledger.read('second')!.snapshot().status).toBe('REJECTED');
    expect(ledger.read('third')!.snapshot().status).toBe('PENDING');
    // The rejected one's 200.00 is released; the approved and the pending still count.
    expect(intents.read(intentId)!.snapshot().refundedAmount).toBe(40000);
    // The same list again settles nothing more: those two are final.
    expect(await service.settleListed(merchantId, 'SANDBOX', 'charge-1', listed)).toBe(0);
    expect(intents.read(intentId)!.snapshot().refundedAmount).toBe(40000);
  });
});

/** The processor's findings, kept as the port keeps them: once per gateway, kind and external id. */
class MemoryFindings extends ProcessorFindingRepository {
  readonly kept: ProcessorFinding[] = [];
  record(_tx: Transaction, finding: ProcessorFinding): Promise<boolean> {
    if (this.kept.some((f) => f.gateway === finding.gateway && f.kind === finding.kind && f.externalId === finding.externalId))
      return Promise.resolve(false);
    this.kept.push(finding);
    return Promise.resolve(true);
  }
  unreported = unused;
  markReported = unused;
}

describe('ProcessorRefunds (refunds made at the processor, on their ports in memory)', () => {
  const processorRefundsWith = () => serviceWith();

  it('records a refund made at the processor once, under its reference, whatever news repeats it', async () => {
    const { processorRefunds, intents, refunds, findings } = processorRefundsWith();
    expect(await processorRefunds.apply(merchantId, 'SANDBOX', 'charge-1', [atProcessor('sbx-panel-1', 20000)])).toBe('applied');
    expect(await processorRefunds.apply(merchantId, 'SANDBOX', 'charge-1', [atProcessor('sbx-panel-1', 20000)])).toBe('replayed');
    expect(intents.read(intentId)!.snapshot()).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 20000 });
    expect(refunds().map((r) => r.snapshot())).toEqual([
      expect.objectContaining({ amount: 20000, status: 'APPROVED', externalId: 'sbx-panel-1', origin: 'PROCESSOR' }),
    ]);
    expect(findings.kept).toEqual([]);
  });

  it('records what the processor refunded beyond what was refundable, and reports it once as PROCESSOR_OVER_REFUND', async () => {
    const { service, processorRefunds, intents, findings } = processorRefundsWith();
    await service.refund(caller, intentId, 1000);
    expect(await processorRefunds.apply(merchantId, 'SANDBOX', 'charge-1', [atProcessor('sbx-panel-2', 30000)])).toBe('applied');
    // What was refunded is what the processor refunded (contract §28), beyond what was received too; the beyond is reported.
    expect(intents.read(intentId)!.snapshot()).toMatchObject({ status: 'REFUNDED', refundedAmount: 130000 });
    expect(findings.kept).toEqual([
      expect.objectContaining({
        kind: 'PROCESSOR_OVER_REFUND',
        externalId: 'sbx-panel-2',
        ours: expect.objectContaining({ amount: -22000 }),
        theirs: expect.objectContaining({ amount: -30000 }),
      }),
    ]);
  });

  it('answers news of another merchant’s or another gateway’s payment as unknown, changing nothing', async () => {
    const { processorRefunds, refunds } = processorRefundsWith();
    expect(await processorRefunds.apply('another-merchant', 'SANDBOX', 'charge-1', [atProcessor('x', 100)])).toBe('unknown');
    expect(await processorRefunds.apply(merchantId, 'MERCADO_PAGO', 'charge-1', [atProcessor('x', 100)])).toBe('unknown');
    expect(refunds()).toEqual([]);
  });
});
