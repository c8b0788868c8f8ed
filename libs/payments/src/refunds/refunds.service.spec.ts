import type { CatalogService } from '@pcs/catalog';
import type { RuntimeSettings } from '@pcs/config';
import type { GatewayRegistry, PaymentGateway, RefundOutcome, RefundRequest } from '@pcs/gateways';
import {
  asBusinessId,
  asMerchantId,
  asPayerId,
  asPaymentIntentId,
  Caller,
  Currency,
  DomainError,
  Money,
  PayinType,
  PaymentIntentId,
  TenantScope,
  Transaction,
  TransactionStatus,
  UnitOfWork,
} from '@pcs/kernel';
import type { MerchantService } from '@pcs/merchants';
import type { PayerService } from '@pcs/payers';
import type { PaymentInstrumentService } from '@pcs/payment-instruments';
import { PaymentAttemptParties } from '../attempts/payment-attempt-parties';
import { Payin, PayinState } from '../domain/payin';
import { PaymentIntent } from '../domain/payment-intent';
import { apiIntent } from '../domain/payment-intent-origins';
import { PayinRepository, RefundRecords } from '../ledger/payin.repository';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { RefundsService } from './refunds.service';
import { ProcessorRefunds } from './processor-refunds.service';
import { ProcessorFinding } from '../domain/processor-finding';
import { ProcessorFindingRepository } from '../ledger/processor-finding.repository';

/**
 * The refunds services (ours, and the processor's own refunds) on their ports
 * alone (no database: the ports carry no ORM): an in-memory unit of work and repositories that
 * keep the aggregate's rule — `saveRefunds` writes only while the intent is
 * the version read — and a gateway stand-in. What is checked is the service's
 * own logic: how much it reserves, that it asks the collection's gateway with
 * the refund's id as the idempotency key, that a retried operation carries
 * the first refund on, that a rejection gives the amount back, and that a
 * write that lost a race is decided again on a fresh read; that a refund made
 * at the processor is recorded once, and what it took beyond the refundable
 * reported once. The same rules over PostgreSQL, with real concurrency:
 * refunds.service.int-spec.ts, test/refunds-idempotency.e2e-spec.ts and
 * test/funds-flow.e2e-spec.ts.
 */
const TX = {} as Transaction;
const now = new Date('2026-11-27T12:00:00Z');
const intentId = asPaymentIntentId('3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9');
const merchantId = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');
const caller: Caller = { credentialId: 'c-1', businessId: asBusinessId('b-1'), merchantId: null };

class MemoryUnitOfWork extends UnitOfWork {
  get outside(): Transaction {
    return TX;
  }
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return work(TX);
  }
  afterCommit(_tx: Transaction, callback: () => void): void {
    callback();
  }
}

/** The ledger's rows, kept as snapshots (what a database would hold). */
class MemoryLedger {
  readonly rows = new Map<string, ReturnType<Payin['snapshot']>>();
  put(payin: Payin): void {
    this.rows.set(payin.id, payin.snapshot());
  }
  read(id: string): Payin | null {
    const row = this.rows.get(id);
    return row ? Payin.restore(row) : null;
  }
  all(): Payin[] {
    return [...this.rows.keys()].map((id) => this.read(id)!);
  }
}

/** What the refunds services never ask of a port: a call would fail the spec. */
const notForRefunds = (): Promise<never> => Promise.reject(new Error('not a port method the refunds services use'));

class MemoryPayins extends PayinRepository {
  constructor(private readonly ledger: MemoryLedger) {
    super();
  }
  insert(_tx: Transaction, payin: Payin): Promise<void> {
    this.ledger.put(payin);
    return Promise.resolve();
  }
  refundsOf(_tx: Transaction, id: PaymentIntentId): Promise<Payin[]> {
    return Promise.resolve(
      this.ledger.all().filter((p) => p.snapshot().paymentIntentId === id && p.snapshot().transactionType === 'REFUND'),
    );
  }
  findByExternalId = notForRefunds;
  openAttempts = notForRefunds;
  openOffSessionCharge = notForRefunds;
  openCheckoutSession = notForRefunds;
  latestCharge = notForRefunds;
  dueForReconciliation = notForRefunds;
  expiredSessions = notForRefunds;
  reconciliationRecords = notForRefunds;
  get(_tx: Transaction, id: string): Promise<Payin | null> {
    return Promise.resolve(this.ledger.read(id));
  }
  save(_tx: Transaction, payin: Payin): Promise<void> {
    this.ledger.put(payin);
    return Promise.resolve();
  }
  saveIfStill(_tx: Transaction, payin: Payin, as: PayinState): Promise<boolean> {
    const stored = this.ledger.read(payin.id)?.state;
    if (stored?.status !== as.status || stored.manualRefundStatus !== as.manualRefundStatus) return Promise.resolve(false);
    this.ledger.put(payin);
    return Promise.resolve(true);
  }
  latestApprovedCharge(): Promise<Payin | null> {
    return Promise.resolve(
      this.ledger.all().find((p) => p.snapshot().transactionType === 'PAYIN' && p.snapshot().status === TransactionStatus.APPROVED) ?? null,
    );
  }
}

class MemoryIntents extends PaymentIntentRepository {
  version = 0;
  intent!: ReturnType<PaymentIntent['snapshot']>;
  /** Called between a refund's read and its write: another request changing the intent meanwhile. */
  meanwhile: (() => void) | null = null;

  constructor(private readonly ledger: MemoryLedger) {
    super();
  }
  findVisible = notForRefunds;
  insert = notForRefunds;
  insertRequiring = notForRefunds;
  insertWith = notForRefunds;
  hasOpenForPayer = notForRefunds;
  findForRefund(_tx: Transaction, _scope: TenantScope, id: PaymentIntentId, operationId: string | null) {
    if (id !== this.intent.paymentIntentId) return Promise.resolve(null);
    const all = this.ledger.all();
    const records: RefundRecords = {
      charge: all.find((p) => p.snapshot().transactionType === 'PAYIN' && p.snapshot().status === TransactionStatus.APPROVED) ?? null,
      open: all.filter((p) => p.snapshot().transactionType === 'REFUND' && !p.isFinal),
      byOperation: operationId ? this.ledger.read(operationId) : null,
    };
    const read = { intent: PaymentIntent.restore(this.intent), version: String(this.version), records };
    const change = this.meanwhile;
    this.meanwhile = null;
    change?.();
    return Promise.resolve(read);
  }
  saveRefunds(_tx: Transaction, intent: PaymentIntent, version: string, refunds: readonly Payin[]): Promise<boolean> {
    if (version !== String(this.version)) return Promise.resolve(false);
    refunds.forEach((refund) => this.ledger.put(refund));
    this.intent = intent.snapshot();
    this.version += 1;
    return Promise.resolve(true);
  }
  findById(): Promise<PaymentIntent | null> {
    return Promise.resolve(PaymentIntent.restore(this.intent));
  }
  lockById(): Promise<PaymentIntent | null> {
    return this.findById();
  }
  save(_tx: Transaction, intent: PaymentIntent): Promise<void> {
    this.intent = intent.snapshot();
    this.version += 1;
    return Promise.resolve();
  }
}

/** A processor that answers each refund as told, remembering what it was asked. */
function gatewayAnswering(answer: (request: RefundRequest) => RefundOutcome) {
  const asked: RefundRequest[] = [];
  const gateway = {
    name: 'SANDBOX',
    refund: (request: RefundRequest) => {
      asked.push(request);
      return Promise.resolve(answer(request));
    },
  } as unknown as PaymentGateway;
  return { asked, gateway };
}

function charged(): { intent: PaymentIntent; charge: Payin } {
  const created = apiIntent(
    {
      paymentIntentId: intentId,
      businessId: caller.businessId,
      merchantId,
      countryId: 'ury',
      amount: Money.ofMinor(122000, Currency.UYU),
      vatRateBp: 2200,
      createdAt: now,
    },
    {
      payinType: PayinType.DEFAULT,
      tip: Money.zero(Currency.UYU),
      payerId: asPayerId('p-1'),
      payerEmail: null,
      paymentInstrumentId: null,
      externalReference: 'order-1',
      invoiceNumber: 1,
      description: null,
      setupFutureUsage: false,
      offSession: false,
      confirm: false,
      metadata: null,
    },
  );
  const intent = PaymentIntent.restore({ ...created.snapshot(), status: 'SUCCEEDED', receivedAmount: 122000, refundedAmount: 0 });
  const charge = Payin.open({
    transactionId: 'charge-1',
    businessId: caller.businessId,
    merchantId,
    paymentIntentId: intentId,
    accountId: null,
    transactionType: 'PAYIN',
    conceptCode: 'PAYIN',
    countryProcessorId: 'cp-visa',
    gateway: 'SANDBOX',
    externalId: 'sbx-charge-1',
    currency: Currency.UYU,
    amount: 122000,
    subtotalAmount: 100000,
    taxAmount: 22000,
    tipAmount: 0,
    description: null,
    merchantName: 'Tienda Pocitos',
    personFirstName: 'Ana',
    personLastName: 'Pérez',
    paymentIntentInitiator: 'PAYER',
    sessionExpiresAt: null,
    reconcileAt: null,
    fundsFlow: 'PLATFORM',
    createdAt: now,
  });
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
  const ledger = new MemoryLedger();
  const intents = new MemoryIntents(ledger);
  const { intent, charge } = charged();
  intents.intent = intent.snapshot();
  ledger.put(charge);
  const { asked, gateway } = gatewayAnswering(answer);
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
  const payins = new MemoryPayins(ledger);
  const service = new RefundsService(new MemoryUnitOfWork(), intents, payins, parties, registry, catalog, settings);
  const refunds = () => ledger.all().filter((p) => p.snapshot().transactionType === 'REFUND');
  return { service, intents, ledger, payins, parties, asked, refunds };
}

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
    intents.meanwhile = () => {
      const other = PaymentIntent.restore(intents.intent);
      other.reserveRefund(Money.ofMinor(100000, Currency.UYU), now);
      intents.intent = other.snapshot();
      intents.version += 1;
    };
    const refused = await service.refund(caller, intentId, 300).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'REFUND_AMOUNT_EXCEEDS_AVAILABLE' });
    expect(asked).toHaveLength(0);
    expect(intents.intent.refundedAmount).toBe(100000);
  });

  it('answers an intent it cannot find, or another tenant’s, as not found', async () => {
    const { service } = serviceWith();
    const missing = await service.refund(caller, asPaymentIntentId('00000000-0000-4000-8000-000000000000'), 1).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'PAYMENT_INTENT_NOT_FOUND' });
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
  unreported = notForRefunds;
  markReported = notForRefunds;
}

describe('ProcessorRefunds (refunds made at the processor, on their ports in memory)', () => {
  function processorRefundsWith() {
    const parts = serviceWith();
    const findings = new MemoryFindings();
    const processorRefunds = new ProcessorRefunds(new MemoryUnitOfWork(), parts.intents, parts.payins, findings, parts.parties);
    return { ...parts, findings, processorRefunds };
  }
  const atProcessor = (reference: string, amount: number) => ({ reference, amount, currency: Currency.UYU, status: 'APPROVED' as const });

  it('records a refund made at the processor once, under its reference, whatever news repeats it', async () => {
    const { processorRefunds, intents, refunds, findings } = processorRefundsWith();
    expect(await processorRefunds.apply(merchantId, 'SANDBOX', 'charge-1', [atProcessor('sbx-panel-1', 20000)])).toBe('applied');
    expect(await processorRefunds.apply(merchantId, 'SANDBOX', 'charge-1', [atProcessor('sbx-panel-1', 20000)])).toBe('replayed');
    expect(intents.intent).toMatchObject({ status: 'PARTIALLY_REFUNDED', refundedAmount: 20000 });
    expect(refunds().map((r) => r.snapshot())).toEqual([
      expect.objectContaining({ amount: 20000, status: 'APPROVED', externalId: 'sbx-panel-1', origin: 'PROCESSOR' }),
    ]);
    expect(findings.kept).toEqual([]);
  });

  it('records what the processor refunded beyond what was refundable, and reports it once as PROCESSOR_OVER_REFUND', async () => {
    const { service, processorRefunds, intents, findings } = processorRefundsWith();
    await service.refund(caller, intentId, 1000);
    expect(await processorRefunds.apply(merchantId, 'SANDBOX', 'charge-1', [atProcessor('sbx-panel-2', 30000)])).toBe('applied');
    // The intent never counts more refunded than it received (the beyond is the finding's).
    expect(intents.intent).toMatchObject({ status: 'REFUNDED', refundedAmount: 122000 });
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
