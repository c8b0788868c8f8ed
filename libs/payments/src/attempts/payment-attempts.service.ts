/*
 * Why one file: an attempt from initialize to its outcome: routing, failover, the gateway's call and the
 * attempt's record share one sequence of locks and writes (initialize, tryRoute and recordOpened are its steps).
 */
import { Injectable, Logger } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import type {
  ChargeOutcome,
  CheckoutRequest,
  CheckoutSession,
  PayerFieldProblem,
  PayerIdentity,
  PayerText,
  PaymentGateway,
} from '@pcs/gateways';
import {
  answersAfterItsPage,
  chargesOffSession,
  choosesInstallmentsOnItsPage,
  closesCheckouts,
  verifiesPayers,
  CheckoutOutcomeUnknownError,
  collectionMethodOf,
  BrokenCircuitError,
  GatewayRegistry,
  GatewayRouting,
  ProcessorCircuits,
  ProcessorRoutes,
  ProcessorUnavailableError,
} from '@pcs/gateways';
import { asPaymentIntentId, Caller, DomainError, Money, PaymentIntentId, tenantScope, Transaction, UnitOfWork } from '@pcs/kernel';
import type { CountryProcessor } from '@pcs/catalog';
import { MAX_RULE_PROCESSORS, MerchantService } from '@pcs/merchants';
import { Payin } from '../domain/payin';
import { PricingService } from '@pcs/settlement';
import * as crypto from 'node:crypto';
import { AvailableProcessorsService } from '../available-processors.service';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { AttemptOutcomes, WrittenCharge } from './attempt-outcomes';
import { PaymentAttemptParties } from './payment-attempt-parties';
import { PayinRepository } from '../ledger/payin.repository';
import { InstallmentQuotesService } from '../installments/installment-quotes.service';

/** What a payer's page must ask before a gateway that verifies payers opens its checkout (contract §20). */
export interface PayerStep {
  readonly countryProcessorId: string;
  readonly paymentMethod: string;
  readonly instrumentType: string;
  /** How the country's identity document is named. */
  readonly documentLabel: PayerText;
  /** What the fields show: what the payer gave, or what the intent's payer record holds. */
  readonly given: PayerIdentity;
  /** What is wrong with what was given (none: nothing given yet). */
  readonly problems: readonly PayerFieldProblem[];
}

/** The reason an attempt failed when its processor could not be reached (contract §26). */
export const PROCESSOR_UNAVAILABLE = 'PROCESSOR_UNAVAILABLE';

interface FailedAttempt {
  /** The id the processor was asked with (its idempotency key). */
  readonly payinId: string;
  readonly gateway: PaymentGateway;
  readonly reason: string;
}

interface OpenedAttempt {
  readonly gateway: PaymentGateway;
  readonly payinId: string;
  readonly checkout: CheckoutSession | null;
  readonly lost: CheckoutOutcomeUnknownError | null;
}

/** The id of a request's try after `index` failed ones: derived from the first, so a retried request finds every try. */
export function attemptIdAfter(firstId: string, index: number): string {
  const hex = crypto.createHash('sha256').update(`${firstId}:failover:${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface InitializedAttempt {
  readonly intent: PaymentIntent;
  readonly gatewayReferenceId: string;
  readonly gatewayUrl: string;
}

/**
 * Collection attempts: at a gateway's page (operation 21) and off-session with
 * an instrument. Gateway calls happen outside database transactions; the
 * database work around them is short and locks the intent first, then its
 * payins.
 */
@Injectable()
export class PaymentAttemptsService {
  private readonly logger = new Logger('PaymentAttempts');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly gateways: GatewayRegistry,
    private readonly catalog: CatalogService,
    private readonly merchants: MerchantService,
    private readonly parties: PaymentAttemptParties,
    private readonly available: AvailableProcessorsService,
    private readonly outcomes: AttemptOutcomes,
    private readonly settings: RuntimeSettings,
    private readonly routing: GatewayRouting,
    private readonly pricing: PricingService,
    private readonly installments: InstallmentQuotesService,
    private readonly routes: ProcessorRoutes,
    private readonly circuits: ProcessorCircuits,
  ) {}

  /**
   * Operation 21. Opens a checkout at the processor's gateway and records a
   * PENDING payin; the intent waits for the payer (REQUIRES_ACTION). A new
   * initialization replaces an earlier attempt: its payin is CANCELLED and its
   * checkout closed. `operationId` (derived from the request's
   * Idempotency-Key, when it has one) names the attempt: an attempt already
   * recorded under it is answered again instead of opening another.
   * `returnUrl`: where the gateway sends the payer back (a hosted page of ours);
   * `payer`: who pays, as the payer gave it on that page, for a gateway that
   * verifies payers (otherwise the intent's payer record is read).
   *
   * A checkout whose answer was lost is recorded all the same, to be settled
   * by reconciliation, and the request answers GATEWAY_UNREACHABLE; the payer
   * may start a new attempt at once.
   */
  async initialize(
    caller: Caller,
    paymentIntentId: PaymentIntentId,
    countryProcessorId: string,
    operationId?: string,
    returnUrl?: string,
    payer?: PayerIdentity,
    installments?: number,
  ): Promise<InitializedAttempt> {
    const current = await this.intents.getVisible(this.unitOfWork.outside, tenantScope(caller), paymentIntentId);
    const earlier = operationId && (await this.recordedUnder(operationId));
    if (earlier) return this.recordedAttempt(current, earlier);
    const firstId = operationId ?? crypto.randomUUID();
    // Refuse early what the state machine refuses, before a checkout is opened.
    PaymentIntent.restore(current.snapshot()).awaitPayerAtGateway(new Date());
    // A payer who may have paid an open attempt is never sent to pay again: its processor is asked first.
    if (current.status === 'REQUIRES_ACTION') await this.askOpenAttempts(current);
    const processor = (await this.available.of(current)).find((p) => p.countryProcessorId === countryProcessorId);
    if (!processor) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE');
    const snapshot = current.snapshot();
    // A payment below the processor's minimum would cost the merchant more than it brings (contract §24).
    await this.pricing.assertAboveMinimum(snapshot.merchantId, processor, current.total);
    // The processors to try, in order (contract §26): a routing rule's, or the method's one processor.
    const route = await this.routes.routeFor(snapshot.merchantId, processor, current.total, firstId);
    const expiresAt = new Date(Date.now() + this.settings.gateway.sessionMinutes * 60_000);
    const { opened, failed } = await this.tryRoute(route.gateways, current, processor, firstId, caller, {
      returnUrl,
      payer,
      installments,
      expiresAt,
    });
    if (!opened) {
      await this.recordFailed(caller, paymentIntentId, processor, failed, installments);
      throw new DomainError('GATEWAY_UNREACHABLE');
    }
    return this.recordOpened(caller, paymentIntentId, processor, { ...opened, expiresAt }, failed, firstId, installments);
  }

  /**
   * The route's processors in order until one opens a checkout (contract §26): an open circuit is
   * skipped, an unreachable processor is recorded as a failed try and the next is tried, an answer
   * that may have done the work is looked up before anything else is tried; a refusal ends the
   * request (the tries before it recorded). `opened` is null when none opened one.
   */
  private async tryRoute(
    gateways: readonly PaymentGateway[],
    current: PaymentIntent,
    processor: CountryProcessor,
    firstId: string,
    caller: Caller,
    asked: { returnUrl?: string; payer?: PayerIdentity; installments?: number; expiresAt: Date },
  ): Promise<{ opened: OpenedAttempt | null; failed: FailedAttempt[] }> {
    const snapshot = current.snapshot();
    const method = collectionMethodOf(processor);
    const merchantName = (await this.merchants.load(caller, snapshot.merchantId)).snapshot().merchantName;
    const failed: FailedAttempt[] = [];
    for (const [index, gateway] of gateways.entries()) {
      const payinId = index === 0 ? firstId : attemptIdAfter(firstId, index);
      const next = index < gateways.length - 1;
      // What the merchant offers in installments here (contract §25); the plan asked for, checked against the first processor's
      // offer, goes on to another only where our page or the sandbox's offers it (Checkout Pro and dLocal let the payer choose).
      const installments = index === 0 || !choosesInstallmentsOnItsPage(gateway) ? asked.installments : undefined;
      let attempt: OpenedAttempt;
      try {
        const installmentOffer = await this.installments.offerFor(snapshot.merchantId, processor, gateway, current.total, installments);
        const identity =
          verifiesPayers(gateway) && gateway.needsPayerIdentity(method)
            ? (asked.payer ?? (await this.parties.payerIdentity(current)))
            : undefined;
        attempt = await this.open(gateway, snapshot.merchantId, {
          payinId,
          merchantId: snapshot.merchantId,
          title: snapshot.description ?? snapshot.externalReference ?? merchantName,
          merchantName,
          paymentMethod: processor.paymentMethod.name,
          method,
          payer: identity,
          currency: snapshot.currency,
          amount: current.total.minor,
          expiresAt: asked.expiresAt,
          returnUrl: asked.returnUrl,
          // The offer goes to every gateway (Checkout Pro shows it on its page); the plan asked for only where our page or the sandbox's offers it.
          ...(installmentOffer
            ? { installmentOffer, ...(choosesInstallmentsOnItsPage(gateway) ? {} : { installments: installments ?? 1 }) }
            : {}),
        });
      } catch (error) {
        if (error instanceof BrokenCircuitError) {
          // Its circuit is open: straight to the next processor, nothing asked of this one (contract §26).
          this.logger.warn(`attempt ${payinId}: ${gateway.name}'s circuit is open for merchant ${snapshot.merchantId}`);
          continue;
        }
        if (!(error instanceof ProcessorUnavailableError)) {
          // A refusal (not the processor being unreachable) ends the request: the tries before it are recorded.
          await this.recordFailed(caller, current.id, processor, failed, asked.installments);
          throw error;
        }
        failed.push({ payinId, gateway, reason: (error as Error).message });
        continue;
      }
      if (attempt.lost && next) {
        // An answer that may have done the work (a timeout once sent): the processor is asked by the attempt's id before
        // anything else is tried; a payment found there is kept (settled by reconciliation) and nothing else is tried.
        const found = await gateway.lookup(payinId, snapshot.merchantId).catch(() => null);
        if (found?.status === 'NOT_RECEIVED') {
          failed.push({ payinId, gateway, reason: attempt.lost.message });
          continue;
        }
      }
      return { opened: attempt, failed };
    }
    return { opened: null, failed };
  }

  /**
   * The opened attempt recorded in one transaction: the intent waits for the payer at the gateway,
   * attempts it replaces are cancelled (their checkouts closed after the commit), the failed tries
   * before it are written, and the new attempt is bound to the checkout (or, when the processor's
   * answer was lost, asked about later by its id). A checkout whose record could not be written is
   * closed at its processor.
   */
  private async recordOpened(
    caller: Caller,
    paymentIntentId: PaymentIntentId,
    processor: CountryProcessor,
    opened: OpenedAttempt & { readonly expiresAt: Date },
    failed: readonly FailedAttempt[],
    firstId: string,
    installments: number | undefined,
  ): Promise<InitializedAttempt> {
    const { gateway, payinId, checkout, lost, expiresAt } = opened;
    let replaced: Payin[] = [];
    try {
      const intent = await this.unitOfWork.run(async (tx) => {
        const intent = await this.intents.getVisible(tx, tenantScope(caller), paymentIntentId, true);
        const now = new Date();
        intent.awaitPayerAtGateway(now);
        replaced = await this.ledger.openAttempts(tx, intent.id);
        for (const old of replaced) {
          old.cancel('replaced by a new payment attempt', now);
          await this.ledger.save(tx, old);
        }
        await this.insertFailed(tx, intent, processor, failed, installments, now);
        const fundsFlow = await gateway.fundsFlowOf(intent.snapshot().merchantId, tx);
        const payin = await this.parties.newAttempt(
          tx,
          intent,
          { ...processor, gateway: gateway.name },
          fundsFlow,
          'PAYER',
          payinId,
          now,
          undefined,
          choosesInstallmentsOnItsPage(gateway) && payinId !== firstId ? undefined : installments,
        );
        if (!checkout) {
          // The gateway may hold a payment nobody can reach: asked about by our id until it says how it ended.
          if (lost?.reference) payin.bindGatewayReference(lost.reference, null, now);
          payin.askGatewayAgainLater(now, this.settings.gateway.reconcileAfterSeconds * 1000);
        } else if (checkout.endsByLookup) {
          // Never expired blindly: the payer may have paid and the notification be lost. Asked about instead.
          payin.bindGatewayReference(checkout.reference, null, now);
          payin.askGatewayAgainLater(now, this.settings.gateway.reconcileAfterSeconds * 1000);
        } else payin.bindGatewayReference(checkout.reference, expiresAt, now);
        await this.ledger.insert(tx, payin);
        await this.intents.save(tx, intent);
        return intent;
      });
      for (const old of replaced) await this.outcomes.closeCheckoutQuietly(old, 'CANCELLED');
      if (!checkout) {
        this.logger.warn(`checkout ${payinId} at ${gateway.name}: ${lost!.message}; reconciliation will settle it`);
        throw new DomainError('GATEWAY_UNREACHABLE');
      }
      return { intent, gatewayReferenceId: checkout.reference, gatewayUrl: checkout.url };
    } catch (error) {
      if (checkout && closesCheckouts(gateway)) await gateway.closeCheckout(checkout.reference, 'CANCELLED').catch(() => undefined);
      throw error;
    }
  }

  /**
   * Before a new attempt replaces the intent's open ones (contract §26): each at a processor whose word may trail the payer
   * (a notification late or lost) is asked whether the payer paid it. Paid: the approval is applied and the new attempt is
   * refused (the intent has succeeded). The processor cannot be reached: 503, nothing replaced (the payer may have paid
   * there; retried once it answers, or settled by reconciliation). Otherwise the new attempt replaces it as before.
   */
  private async askOpenAttempts(intent: PaymentIntent): Promise<void> {
    const open = (await this.ledger.attemptsOf(this.unitOfWork.outside, intent.id)).filter((payin) => {
      const p = payin.snapshot();
      return !payin.isFinal && p.paymentIntentInitiator === 'PAYER' && p.gateway !== null && p.externalId !== null;
    });
    for (const payin of open) {
      const p = payin.snapshot();
      const gateway = this.gateways.has(p.gateway!) ? this.gateways.get(p.gateway!) : null;
      if (!gateway || !answersAfterItsPage(gateway)) continue;
      const found = await gateway.whetherPaid(p.transactionId, p.merchantId).catch((error: unknown) => {
        this.logger.warn(`attempt ${p.transactionId} at ${gateway.name} could not be asked about (${(error as Error).message})`);
        throw new DomainError('GATEWAY_UNREACHABLE');
      });
      if (found.status !== 'APPROVED') continue;
      const { status: _status, reference, ...details } = found;
      await this.outcomes.applyChargeAnswer(
        p.transactionId,
        gateway.name,
        { ...details, status: 'APPROVED', reference: reference ?? p.externalId! },
        intent.id,
      );
      throw new DomainError('PAYMENT_INTENT_INVALID_STATE', undefined, { status: 'SUCCEEDED' });
    }
  }

  /** Opens a checkout through the processor account's circuit: a lost answer is returned, not thrown (it may have been done). */
  private async open(gateway: PaymentGateway, merchantId: string, request: CheckoutRequest): Promise<OpenedAttempt> {
    try {
      const checkout = await this.circuits.run(gateway.name, merchantId, () => gateway.openCheckout(request));
      return { gateway, payinId: request.payinId, checkout, lost: null };
    } catch (error) {
      if (error instanceof CheckoutOutcomeUnknownError) return { gateway, payinId: request.payinId, checkout: null, lost: error };
      throw error;
    }
  }

  /** The tries of a request that opened nothing, recorded on their own (the intent unchanged): the intent lists them. */
  private async recordFailed(
    caller: Caller,
    paymentIntentId: PaymentIntentId,
    processor: CountryProcessor,
    failed: readonly FailedAttempt[],
    installments: number | undefined,
  ): Promise<void> {
    if (failed.length === 0) return;
    await this.unitOfWork.run(async (tx) => {
      const intent = await this.intents.getVisible(tx, tenantScope(caller), paymentIntentId, true);
      await this.insertFailed(tx, intent, processor, failed, installments, new Date());
    });
  }

  /** Each processor that could not be reached, as an attempt REJECTED for PROCESSOR_UNAVAILABLE (contract §26), in order. */
  private async insertFailed(
    tx: Transaction,
    intent: PaymentIntent,
    processor: CountryProcessor,
    failed: readonly FailedAttempt[],
    installments: number | undefined,
    now: Date,
  ): Promise<void> {
    for (const [index, attempt] of failed.entries()) {
      const at = new Date(now.getTime() - (failed.length - index));
      const fundsFlow = await attempt.gateway.fundsFlowOf(intent.snapshot().merchantId, tx);
      // A record of its own: the try's id stays free, so a retried request asks the processor again under the same key.
      const payin = await this.parties.newAttempt(
        tx,
        intent,
        { ...processor, gateway: attempt.gateway.name },
        fundsFlow,
        'PAYER',
        crypto.randomUUID(),
        at,
        undefined,
        choosesInstallmentsOnItsPage(attempt.gateway) ? undefined : installments,
      );
      payin.reject(`${PROCESSOR_UNAVAILABLE}: ${attempt.reason}`.slice(0, 64), at);
      await this.ledger.insert(tx, payin);
    }
  }

  /**
   * The attempt a request opened under its id: its first try's, or a later try's after a failover (derived from the first).
   * Tries that failed are recorded under ids of their own: a request that opened nothing runs again when retried.
   */
  private recordedUnder(operationId: string): Promise<Payin | null> {
    const ids = [operationId, ...Array.from({ length: MAX_RULE_PROCESSORS }, (_, index) => attemptIdAfter(operationId, index + 1))];
    return this.ledger.anyOf(this.unitOfWork.outside, ids);
  }

  /**
   * For the pages where a payer chooses a method (the B2B checkout, a link's
   * pay page): whether the gateway that would serve it needs the payer's
   * name, e-mail and document first (dLocal does; the sandbox and Mercado
   * Pago do not), and what is wrong with what was given. Null: go on.
   */
  async payerStep(intent: PaymentIntent, countryProcessorId: string, given?: PayerIdentity): Promise<PayerStep | null> {
    const processor = (await this.available.of(intent)).find((p) => p.countryProcessorId === countryProcessorId);
    if (!processor) return null; // initialize refuses it, as it always did
    const gateway = await this.routing.gatewayFor(intent.snapshot().merchantId, processor);
    const method = collectionMethodOf(processor);
    if (!verifiesPayers(gateway) || !gateway.needsPayerIdentity(method)) return null;
    const step = {
      countryProcessorId,
      paymentMethod: processor.paymentMethod.name,
      instrumentType: processor.paymentInstrumentType.name,
      documentLabel: gateway.payerDocumentLabel(method),
    };
    if (!given) return { ...step, given: await this.parties.payerIdentity(intent), problems: [] };
    const problems = gateway.payerIdentityProblems(method, given);
    return problems.length > 0 ? { ...step, given, problems } : null;
  }

  private async recordedAttempt(intent: PaymentIntent, payin: Payin): Promise<InitializedAttempt> {
    const p = payin.snapshot();
    // An attempt whose checkout answer was lost: still unavailable (reconciliation settles it).
    if (p.paymentIntentId === intent.id && p.transactionType === 'PAYIN' && p.gateway && !p.externalId && !payin.isFinal)
      throw new DomainError('GATEWAY_UNREACHABLE');
    if (p.paymentIntentId !== intent.id || p.transactionType !== 'PAYIN' || !p.gateway || !p.externalId)
      throw new DomainError('PAYMENT_INTENT_INVALID_STATE', undefined, { status: intent.status });
    return { intent, gatewayReferenceId: p.externalId, gatewayUrl: await this.gateways.get(p.gateway).checkoutUrl(p.externalId) };
  }

  /**
   * Charges the intent's instrument without the payer. The intent and a
   * PENDING payin were committed by the caller; the outcome is applied as a
   * gateway event would be, so both paths share one set of rules. The payin's
   * id is the gateway's idempotency key, so charging again (a retried request)
   * returns the first outcome. If the gateway cannot be reached the payin
   * stays PENDING and reconciliation settles it. Answers the intent as the
   * outcome left it, or null when none was applied here.
   *
   * `written`: what the creation that just committed the attempt holds, not
   * read again; with `charge` (the intent and attempt as one statement wrote
   * them), the answer is applied in one statement while neither row has
   * changed since (AttemptOutcomes.applyChargeAnswerToWritten).
   */
  async chargeOffSession(
    payinId: string,
    written?: { payin: Payin; instrumentToken: string | null; storedAt?: string | null; charge?: WrittenCharge; cardToken?: string },
  ): Promise<PaymentIntent | null> {
    // What the creation that just committed the attempt already holds is not read again.
    const payin = written?.payin ?? (await this.ledger.get(this.unitOfWork.outside, payinId));
    if (!payin || payin.isFinal) return null;
    const p = payin.snapshot();
    const processor = p.countryProcessorId ? (await this.catalog.findCountryProcessors([p.countryProcessorId]))[0] : undefined;
    if (!processor) return null;
    let token: string | null;
    let storedAt: string | null;
    let intentNow: PaymentIntent | null = null;
    if (written) [token, storedAt] = [written.instrumentToken, written.storedAt ?? null];
    else {
      intentNow = await this.intents.findById(this.unitOfWork.outside, p.paymentIntentId);
      ({ token, processor: storedAt } = intentNow ? await this.parties.instrumentCharged(intentNow) : { token: null, processor: null });
    }
    // A saved card is charged where it is kept (contract §31), whatever the catalog or the routing says.
    const gateway = this.gateways.get(storedAt ?? processor.gateway);
    // Refused before anything was written where the route's gateway does not charge off-session (the creation asks first).
    if (!chargesOffSession(gateway)) throw new DomainError('OFF_SESSION_NOT_SUPPORTED', undefined, { provider: gateway.displayName });
    // A charge in installments (contract §25): the merchant's offer goes with it, for a gateway that prices the plan.
    const installmentOffer =
      p.installments > 1 ? await this.installments.offerFor(p.merchantId, processor, gateway, Money.ofMinor(p.amount, p.currency)) : null;
    // A gateway that names every payer (dLocal) is told who pays; the intent is read for it only then.
    if (verifiesPayers(gateway) && !intentNow) intentNow = await this.intents.findById(this.unitOfWork.outside, p.paymentIntentId);
    const payer = verifiesPayers(gateway) && intentNow ? await this.parties.payerIdentity(intentNow) : undefined;
    const schedule = intentNow ? await this.scheduleOf(intentNow) : undefined;
    let outcome: ChargeOutcome;
    try {
      outcome = await gateway.chargeOffSession({
        payinId,
        merchantId: p.merchantId,
        instrumentToken: token,
        merchantName: p.merchantName,
        paymentMethod: processor.paymentMethod.name,
        currency: p.currency,
        amount: p.amount,
        method: collectionMethodOf(processor),
        ...(payer ? { payer } : {}),
        ...(installmentOffer ? { installments: p.installments, installmentOffer } : {}),
        ...(schedule ? { schedule } : {}),
        ...(written?.cardToken ? { cardToken: written.cardToken } : {}),
      });
    } catch (error) {
      this.logger.warn(
        `off-session charge ${payinId} got no answer from ${gateway.name} (${(error as Error).message}); reconciliation will settle it`,
      );
      return null;
    }
    if (written?.charge) {
      const applied = await this.outcomes.applyChargeAnswerToWritten(written.charge, gateway.name, outcome);
      if (applied) return applied;
    }
    return this.outcomes.applyChargeAnswer(payinId, gateway.name, outcome, p.paymentIntentId);
  }

  /**
   * A scheduled charge's date and, for a retry, the processor's payment it retries (the charge of the intent it names),
   * as the intent's metadata keeps them (Pix Automático, contract §31); undefined for any other charge.
   */
  private async scheduleOf(intent: PaymentIntent): Promise<{ date: string; retryOf: string | null } | undefined> {
    const scheduled = (intent.snapshot().metadata as { scheduledCharge?: { date?: unknown; retryOfPaymentIntentId?: unknown } } | null)
      ?.scheduledCharge;
    if (!scheduled || typeof scheduled.date !== 'string') return undefined;
    const retried = typeof scheduled.retryOfPaymentIntentId === 'string' ? scheduled.retryOfPaymentIntentId : null;
    const charge = retried ? await this.ledger.latestCharge(this.unitOfWork.outside, asPaymentIntentId(retried)) : null;
    return { date: scheduled.date, retryOf: charge?.snapshot().externalId ?? null };
  }
}
