import { AlreadyRecordedError } from '../src/domain/already-recorded';
import { Guard } from '@pcs/database';
import { CardTestingGuard } from '../src/card-testing/card-testing.guard';
import type { CatalogService, CountryProcessor } from '@pcs/catalog';
import type { RuntimeSettings } from '@pcs/config';
import type {
  ChargeOutcome,
  CheckoutRequest,
  CheckoutSession,
  GatewayRegistry,
  GatewayRouting,
  ChargeRequest,
  PayerFieldProblem,
  PayerIdentity,
  PayerText,
} from '@pcs/gateways';
import type { MerchantConfigurationService, MerchantCountryProcessorService, MerchantService } from '@pcs/merchants';
import type { PayerService } from '@pcs/payers';
import type { PaymentInstrumentService } from '@pcs/payment-instruments';
import type { PricingService } from '@pcs/settlement';
import {
  asBusinessId,
  asMerchantId,
  asPayerId,
  asPaymentIntentId,
  Caller,
  ChangeAlongside,
  Currency,
  FundsFlow,
  Money,
  PayinType,
  PaymentInstrumentId,
  PaymentIntentId,
  TenantScope,
  Transaction,
  TransactionStatus,
} from '@pcs/kernel';
import { MEMORY_TX, MemoryUnitOfWork } from '@pcs/testing/unit-of-work';
import { AttemptOutcomes } from '../src/attempts/attempt-outcomes';
import { PaymentAttemptParties } from '../src/attempts/payment-attempt-parties';
import { PaymentAttemptsService } from '../src/attempts/payment-attempts.service';
import { AvailableProcessorsService } from '../src/available-processors.service';
import { ProcessorCircuits, ProcessorRoutes } from '@pcs/gateways';
import { InstallmentQuotesService } from '../src/installments/installment-quotes.service';
import { apiIntent } from '../src/domain/payment-intent-origins';
import { Payin, PayinState } from '../src/domain/payin';
import { PaymentIntent } from '../src/domain/payment-intent';
import { PayinRepository, RefundRecords } from '../src/ledger/payin.repository';
import { PaymentIntentRepository } from '../src/payment-intent.repository';

/**
 * The payments context's ports in memory, for the services' unit specs: what a database would hold,
 * kept as snapshots (a service's objects are never the stored ones), with the ports' rules where a
 * service depends on them (a save of a refund only while the intent is the version read, a record
 * saved only while still in the state read, tenancy on every read for a caller). A port method a
 * service under test should never call fails the spec. The same rules on PostgreSQL, with real
 * concurrency, are the integration and end-to-end specs'.
 */
export const TX = MEMORY_TX;
export { MemoryUnitOfWork };

/** A port method the service under test never calls: a call fails the spec. */
export const unused = (): Promise<never> => Promise.reject(new Error('a port method this service should not call'));

const OPEN_ATTEMPT = new Set<string>([TransactionStatus.PENDING, TransactionStatus.SCHEDULED]);

/** The ledger's records. */
export class MemoryPayins extends PayinRepository {
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
  ofIntent(id: PaymentIntentId, type: 'PAYIN' | 'REFUND'): Payin[] {
    return this.all().filter((p) => p.snapshot().paymentIntentId === id && p.snapshot().transactionType === type);
  }

  insert(_tx: Transaction, payin: Payin): Promise<void> {
    if (this.rows.has(payin.id)) return Promise.reject(new AlreadyRecordedError('PAYIN'));
    this.put(payin);
    return Promise.resolve();
  }
  save(_tx: Transaction, payin: Payin): Promise<void> {
    this.put(payin);
    return Promise.resolve();
  }
  /** Whether a payment intent has no dispute (the intents' store answers, once it is made over these payins). */
  undisputed: (id: PaymentIntentId) => boolean = () => true;

  saveIfStill(_tx: Transaction, payin: Payin, as: PayinState, options: { undisputed?: boolean } = {}): Promise<boolean> {
    const stored = this.read(payin.id)?.state;
    if (stored?.status !== as.status || stored.manualRefundStatus !== as.manualRefundStatus) return Promise.resolve(false);
    if (options.undisputed && !this.undisputed(payin.snapshot().paymentIntentId)) return Promise.resolve(false);
    this.put(payin);
    return Promise.resolve(true);
  }
  get(_tx: Transaction, id: string): Promise<Payin | null> {
    return Promise.resolve(this.read(id));
  }
  findByExternalId(_tx: Transaction, gateway: string, externalId: string): Promise<Payin | null> {
    return Promise.resolve(this.all().find((p) => p.snapshot().gateway === gateway && p.snapshot().externalId === externalId) ?? null);
  }
  openAttempts(_tx: Transaction, id: PaymentIntentId): Promise<Payin[]> {
    return Promise.resolve(this.ofIntent(id, 'PAYIN').filter((p) => OPEN_ATTEMPT.has(p.snapshot().status)));
  }
  anyOf(_tx: Transaction, ids: readonly string[]): Promise<Payin | null> {
    const found = ids.map((id) => this.read(id)).filter((p): p is Payin => p !== null);
    return Promise.resolve(found[found.length - 1] ?? null);
  }
  attemptsOf(_tx: Transaction, id: PaymentIntentId): Promise<Payin[]> {
    return Promise.resolve(this.ofIntent(id, 'PAYIN'));
  }
  openCheckoutSession(_tx: Transaction, id: PaymentIntentId, now: Date): Promise<Payin | null> {
    const open = this.ofIntent(id, 'PAYIN').filter((p) => {
      const s = p.snapshot();
      return (
        s.status === TransactionStatus.PENDING && s.paymentIntentInitiator === 'PAYER' && (!s.sessionExpiresAt || s.sessionExpiresAt > now)
      );
    });
    return Promise.resolve(open[open.length - 1] ?? null);
  }
  latestApprovedCharge(_tx: Transaction, id: PaymentIntentId): Promise<Payin | null> {
    const approved = this.ofIntent(id, 'PAYIN').filter((p) => p.snapshot().status === TransactionStatus.APPROVED);
    return Promise.resolve(approved[approved.length - 1] ?? null);
  }
  openOffSessionCharge(_tx: Transaction, id: PaymentIntentId): Promise<Payin | null> {
    const open = this.ofIntent(id, 'PAYIN').filter(
      (p) => OPEN_ATTEMPT.has(p.snapshot().status) && p.snapshot().paymentIntentInitiator === 'MERCHANT',
    );
    return Promise.resolve(open[open.length - 1] ?? null);
  }
  refundsOf(_tx: Transaction, id: PaymentIntentId): Promise<Payin[]> {
    return Promise.resolve(this.ofIntent(id, 'REFUND'));
  }
  latestCharge(_tx: Transaction, id: PaymentIntentId): Promise<Payin | null> {
    const all = this.ofIntent(id, 'PAYIN');
    return Promise.resolve(all[all.length - 1] ?? null);
  }
  dueForReconciliation = unused;
  dueForLookup = unused;
  markLookedUp = unused;
  expiredSessions = unused;
  reconciliationRecords = unused;
}

/** What a memory guard writes, and whether it would (a guard that is required writes or stops the statement). */
export interface MemoryWrite {
  holds(): boolean;
  apply(): void;
}

/** A guard a memory repository hands out for `recordWith`, in place of its SQL. */
export function memoryGuard(write: MemoryWrite, required?: string): ChangeAlongside {
  return Guard.of('-- in memory', [write], { required });
}

/** The payment intents, each with the version a refund's save compares. */
export class MemoryIntents extends PaymentIntentRepository {
  readonly rows = new Map<string, { intent: ReturnType<PaymentIntent['snapshot']>; version: number }>();
  /** Whether the requirement an `recordWhile` carries (another context's row, e.g. the payer) holds when it runs. */
  requirementHolds = true;
  /** Run between a refund's read and its write: another request changing the intent meanwhile. */
  meanwhile: (() => void) | null = null;

  constructor(private readonly payins: MemoryPayins) {
    super();
    payins.undisputed = (id) => (this.read(id)?.snapshot().disputes.length ?? 0) === 0;
  }

  put(intent: PaymentIntent): void {
    const row = this.rows.get(intent.id);
    this.rows.set(intent.id, { intent: intent.snapshot(), version: (row?.version ?? 0) + 1 });
  }
  read(id: string): PaymentIntent | null {
    const row = this.rows.get(id);
    return row ? PaymentIntent.restore(row.intent) : null;
  }
  /** Another request's change to the stored intent (its version moves on). */
  change(id: PaymentIntentId, how: (intent: PaymentIntent) => void): void {
    const intent = this.read(id)!;
    how(intent);
    this.put(intent);
  }

  findVisible(_tx: Transaction, scope: TenantScope, id: PaymentIntentId): Promise<PaymentIntent | null> {
    const intent = this.read(id);
    const s = intent?.snapshot();
    if (!s || s.businessId !== scope.businessId || (scope.merchantId && s.merchantId !== scope.merchantId)) return Promise.resolve(null);
    return Promise.resolve(intent);
  }
  async findForRefund(tx: Transaction, scope: TenantScope, id: PaymentIntentId, operationId: string | null) {
    const intent = await this.findVisible(tx, scope, id);
    if (!intent) return null;
    const payins = this.payins.ofIntent(id, 'PAYIN');
    const records: RefundRecords = {
      charge: payins.filter((p) => p.snapshot().status === TransactionStatus.APPROVED).pop() ?? null,
      open: this.payins.ofIntent(id, 'REFUND').filter((p) => !p.isFinal),
      byOperation: operationId ? this.payins.read(operationId) : null,
    };
    const read = { intent, version: String(this.rows.get(id)!.version), records };
    const change = this.meanwhile;
    this.meanwhile = null;
    change?.();
    return read;
  }
  lockById(_tx: Transaction, id: PaymentIntentId): Promise<PaymentIntent | null> {
    return Promise.resolve(this.read(id));
  }
  findById(_tx: Transaction, id: PaymentIntentId): Promise<PaymentIntent | null> {
    return Promise.resolve(this.read(id));
  }
  insert(_tx: Transaction, intent: PaymentIntent): Promise<void> {
    if (this.rows.has(intent.id)) return Promise.reject(new AlreadyRecordedError('PAYMENT_INTENT'));
    this.put(intent);
    return Promise.resolve();
  }
  async recordWhile(tx: Transaction, intent: PaymentIntent): Promise<boolean> {
    if (!this.requirementHolds) return false;
    await this.insert(tx, intent);
    return true;
  }
  /**
   * The intent in one statement with the changes it goes with: every guard is checked first (a
   * memory guard, `memoryGuard`), and a required one that would write nothing leaves everything
   * unwritten; then the guards' writes and the intent.
   */
  async recordWith(tx: Transaction, intent: PaymentIntent, also: { alongside: readonly ChangeAlongside[] }): Promise<boolean> {
    const guards = also.alongside.map((change) => Guard.parts(change));
    const writes = guards.map(({ statement }) => statement.values[0] as MemoryWrite);
    if (guards.some(({ required }, i) => required !== null && !writes[i].holds())) return false;
    if (this.rows.has(intent.id)) return Promise.reject(new AlreadyRecordedError('PAYMENT_INTENT'));
    writes.forEach((write) => write.apply());
    await this.insert(tx, intent);
    return true;
  }
  async recordCharged(tx: Transaction, intent: PaymentIntent, attempt: Payin): Promise<string | null> {
    if (!this.requirementHolds) return null;
    await this.insert(tx, intent);
    await this.payins.insert(tx, attempt);
    intent.pullChanges();
    return String(this.rows.get(intent.id)!.version);
  }
  /** Written only if the intent is still the version its creation wrote (another request's `change` moves it on). */
  async saveChargedWith(tx: Transaction, intent: PaymentIntent, attempt: Payin, writtenIn: string): Promise<boolean> {
    if (String(this.rows.get(intent.id)?.version) !== writtenIn || intent.pullChanges().length === 0) return false;
    this.put(intent);
    await this.payins.save(tx, attempt);
    return true;
  }
  save(_tx: Transaction, intent: PaymentIntent): Promise<void> {
    this.put(intent);
    return Promise.resolve();
  }
  recordRefunds(_tx: Transaction, intent: PaymentIntent, version: string, refunds: readonly Payin[]): Promise<boolean> {
    if (version !== String(this.rows.get(intent.id)?.version)) return Promise.resolve(false);
    refunds.forEach((refund) => this.payins.put(refund));
    this.put(intent);
    return Promise.resolve(true);
  }
  hasOpenForPayer = unused;
}

/** One business, one merchant, its caller: the specs' tenant. */
export const NOW = new Date('2026-11-27T12:00:00Z');
export const INTENT_ID = asPaymentIntentId('3f1e2d4c-5b6a-4978-8695-a4b3c2d1e0f9');
export const MERCHANT_ID = asMerchantId('8d2b9f4e-1c3a-4b5d-9e6f-7a8b9c0d1e2f');
export const BUSINESS_ID = asBusinessId('b-1');
export const CALLER: Caller = { credentialId: 'c-1', businessId: BUSINESS_ID, merchantId: null };

/** Operation 17's intent of UYU 1,220.00 (VAT 22 % included) for payer p-1, as the API makes it. */
export function anIntent(options: { confirm?: boolean; paymentInstrumentId?: PaymentInstrumentId | null } = {}): PaymentIntent {
  return apiIntent(
    {
      paymentIntentId: INTENT_ID,
      businessId: BUSINESS_ID,
      merchantId: MERCHANT_ID,
      countryId: 'ury',
      amount: Money.ofMinor(122000, Currency.UYU),
      vatRateBp: 2200,
      createdAt: NOW,
    },
    {
      payinType: PayinType.DEFAULT,
      tip: Money.zero(Currency.UYU),
      payerId: asPayerId('p-1'),
      payerEmail: null,
      paymentInstrumentId: options.paymentInstrumentId ?? null,
      externalReference: 'order-1',
      invoiceNumber: 1,
      description: null,
      setupFutureUsage: false,
      offSession: false,
      confirm: options.confirm ?? false,
      metadata: null,
    },
  );
}

/** A new collection attempt of the intent's whole amount at a gateway (PENDING), the payer's at its page unless said. */
export function anAttempt(
  intent: PaymentIntent,
  options: { transactionId?: string; gateway?: string; initiator?: 'PAYER' | 'MERCHANT'; sessionExpiresAt?: Date | null } = {},
): Payin {
  const i = intent.snapshot();
  return Payin.open({
    transactionId: options.transactionId ?? 'charge-1',
    businessId: i.businessId,
    merchantId: i.merchantId,
    paymentIntentId: i.paymentIntentId,
    accountId: null,
    transactionType: 'PAYIN',
    conceptCode: 'PAYIN',
    countryProcessorId: 'cp-visa',
    gateway: options.gateway ?? 'SANDBOX',
    externalId: null,
    currency: Currency.UYU,
    amount: intent.total.minor,
    subtotalAmount: 100000,
    taxAmount: 22000,
    tipAmount: 0,
    description: null,
    merchantName: 'Tienda Pocitos',
    personFirstName: 'Ana',
    personLastName: 'Pérez',
    paymentIntentInitiator: options.initiator ?? 'PAYER',
    sessionExpiresAt: options.sessionExpiresAt ?? null,
    reconcileAt: null,
    fundsFlow: 'PLATFORM',
    createdAt: NOW,
  });
}

/** The merchant's one processor in the specs: VISA credit cards in Uruguay at the sandbox. */
export const VISA = {
  countryProcessorId: 'cp-visa',
  gateway: 'SANDBOX',
  active: true,
  country: { iso3: 'URY', countryId: 'ury' },
  paymentMethod: { paymentMethodId: 'pm-visa', name: 'VISA' },
  paymentInstrumentType: { paymentInstrumentTypeId: 'pit-credit', name: 'CREDIT_CARD' },
} as unknown as CountryProcessor;

/** What a stand-in gateway was asked, and how it answers: a checkout, an off-session charge, a closed checkout. */
export class GatewayStandIn {
  readonly name = 'SANDBOX';
  readonly displayName = 'Sandbox';
  payerIdentity = false;
  fundsFlow: FundsFlow = 'PLATFORM';
  readonly checkouts: CheckoutRequest[] = [];
  readonly charges: ChargeRequest[] = [];
  readonly closed: Array<{ reference: string; reason: string }> = [];
  /** The checkout's answer: a session, or an error thrown (a lost answer: CheckoutOutcomeUnknownError). */
  checkout: (request: CheckoutRequest) => CheckoutSession = (request) => ({
    reference: `sbx-${request.payinId}`,
    url: `https://sandbox.example/pay/${request.payinId}`,
    endsByLookup: false,
  });
  charge: (request: ChargeRequest) => ChargeOutcome = (request) => ({ status: 'APPROVED', reference: `sbx-${request.payinId}` });
  /** Whether the merchant's account may charge without the payer (ChargesOffSession; a spec may say no). */
  offSession = true;

  openCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    this.checkouts.push(request);
    // What the answer throws is the call's rejection.
    return new Promise((resolve) => resolve(this.checkout(request)));
  }
  offSessionAvailable(): Promise<boolean> {
    return Promise.resolve(this.offSession);
  }
  /** The ChargesOffSession capability (a spec takes it away to play a processor without it: `withoutOffSession`). */
  chargeOffSession?(request: ChargeRequest): Promise<ChargeOutcome> {
    this.charges.push(request);
    // What the answer throws is the call's rejection.
    return new Promise((resolve) => resolve(this.charge(request)));
  }
  closeCheckout(reference: string, reason: string): Promise<void> {
    this.closed.push({ reference, reason });
    return Promise.resolve();
  }
  checkoutUrl(reference: string): Promise<string> {
    return Promise.resolve(`https://sandbox.example/pay/${reference}`);
  }
  needsPayerIdentity(): boolean {
    return this.payerIdentity;
  }
  payerDocumentLabel(): PayerText {
    return { en: 'Document', es: 'Documento', pt: 'Documento' };
  }
  payerIdentityProblems(_method: unknown, given: PayerIdentity): PayerFieldProblem[] {
    return given.document
      ? []
      : [{ field: 'document', message: { en: 'The document is missing', es: 'Falta el documento', pt: 'Falta o documento' } }];
  }
  fundsFlowOf(): Promise<FundsFlow> {
    return Promise.resolve(this.fundsFlow);
  }
}

/** The stand-in as a processor that does not charge saved instruments (no ChargesOffSession capability). */
export function withoutOffSession(gateway: GatewayStandIn): void {
  (gateway as { chargeOffSession?: unknown }).chargeOffSession = undefined;
}

/**
 * The services an attempt needs around the ports, on the stand-in gateway and the merchant's one
 * processor: the parties (merchant Tienda Pocitos, payer Ana Pérez), the outcomes' rules (a fee of
 * 30.50 + tax 6.71 fixed at the approval), the routing. Each collaborator from another context is a
 * stand-in with only what these services ask of it.
 */
export function attemptsWorld(options: { processors?: CountryProcessor[] } = {}) {
  const payins = new MemoryPayins();
  const intents = new MemoryIntents(payins);
  const unitOfWork = new MemoryUnitOfWork();
  const gateway = new GatewayStandIn();
  const settings = {
    publicBaseUrl: 'https://pay.example',
    gateway: { reconcileAfterSeconds: 300, sessionMinutes: 30, checkoutMinutes: 60 },
  } as unknown as RuntimeSettings;
  const merchant = {
    merchantName: 'Tienda Pocitos',
    account: { serviceAccount: null },
  };
  const merchants = {
    findById: () => Promise.resolve(merchant),
    load: () => Promise.resolve({ snapshot: () => merchant }),
  } as unknown as MerchantService;
  const payer = { firstName: 'Ana', lastName: 'Pérez', email: 'ana@example.uy', documentNumber: null, documentType: null };
  const taught: Array<{ charged?: ChargeOutcome; validated: boolean }> = [];
  const payers = { findById: () => Promise.resolve(payer) } as unknown as PayerService;
  const instruments = {
    tokenOf: () => Promise.resolve('tok-saved'),
    chargedAs: () => Promise.resolve({ token: 'tok-saved', processor: null }),
    recordOutcome: (...args: unknown[]) => {
      taught.push(args[args.length - 1] as never);
      return Promise.resolve();
    },
    // The lesson of an instrument the caller read, written in the caller's statement (here: taught, with nothing to write).
    lessonAlongside: (...args: unknown[]) => {
      taught.push(args[args.length - 1] as never);
      return null;
    },
  } as unknown as PaymentInstrumentService;
  const parties = new PaymentAttemptParties(merchants, payers, instruments, settings);
  const processors = options.processors ?? [VISA];
  const available = { of: () => Promise.resolve(processors) } as unknown as AvailableProcessorsService;
  const pricing = {
    approvalTerms: () => Promise.resolve({ feeAmount: 3050, feeTaxAmount: 671, availableOn: NOW, liquidationSource: 'CALENDAR' }),
    assertAboveMinimum: () => Promise.resolve(),
  } as unknown as PricingService;
  const registry = { get: () => gateway, has: () => true } as unknown as GatewayRegistry;
  const routing = { gatewayFor: () => Promise.resolve(gateway) } as unknown as GatewayRouting;
  const catalog = {
    findCountryProcessors: (ids: string[]) => Promise.resolve(processors.filter((p) => ids.includes(p.countryProcessorId))),
  } as unknown as CatalogService;
  // The card-testing guard (contract §30) as the specs see it: what it was told (its own rules: test/card-testing.e2e-spec.ts).
  const guardTold: { kind: 'refuseNewAttempt' | 'started' | 'declined'; detail: unknown }[] = [];
  const cardTesting = {
    refuseNewAttempt: (attempt: unknown) => Promise.resolve(void guardTold.push({ kind: 'refuseNewAttempt', detail: attempt })),
    started: (attempt: object, paymentIntentId: string) =>
      Promise.resolve(void guardTold.push({ kind: 'started', detail: { ...attempt, paymentIntentId } })),
    declined: (_tx: unknown, paymentIntentId: string) =>
      Promise.resolve(void guardTold.push({ kind: 'declined', detail: paymentIntentId })),
  } as unknown as CardTestingGuard;
  const outcomes = new AttemptOutcomes(unitOfWork, intents, payins, pricing, registry, parties, settings, cardTesting);
  // The merchant's installment policy (contract §25): one payment unless a spec sets one.
  const installmentPolicy = { maxInstallments: 1, interestFreeUpTo: 0, minInstallmentAmount: {} as Record<string, number> };
  const installmentQuotes = new InstallmentQuotesService(
    merchants,
    { offeredCountryProcessors: () => Promise.resolve(processors) } as unknown as MerchantCountryProcessorService,
    { installmentPolicyFor: () => Promise.resolve(installmentPolicy) } as unknown as MerchantConfigurationService,
    instruments,
    routing,
  );
  const attempts = new PaymentAttemptsService(
    unitOfWork,
    intents,
    payins,
    registry,
    catalog,
    merchants,
    parties,
    available,
    outcomes,
    settings,
    routing,
    pricing,
    installmentQuotes,
    // No routing rule: each method to its one gateway (contract §26's rules are the e2e specs').
    new ProcessorRoutes({ routingFor: () => Promise.resolve([]) } as unknown as MerchantConfigurationService, routing),
    new ProcessorCircuits(settings),
  );
  return {
    cardTesting,
    guardTold,
    payins,
    intents,
    unitOfWork,
    gateway,
    settings,
    merchants,
    payers,
    parties,
    available,
    pricing,
    registry,
    routing,
    catalog,
    outcomes,
    attempts,
    processors,
    taught,
    installmentPolicy,
    installmentQuotes,
  };
}
