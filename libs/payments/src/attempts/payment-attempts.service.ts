import { Injectable, Logger } from '@nestjs/common';
import { CatalogService } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import type { ChargeOutcome, CheckoutSession, PayerFieldProblem, PayerIdentity, PayerText } from '@pcs/gateways';
import { CheckoutOutcomeUnknownError, collectionMethodOf, GatewayRegistry, GatewayRouting } from '@pcs/gateways';
import { Caller, DomainError, Money, PaymentIntentId, tenantScope, UnitOfWork } from '@pcs/kernel';
import { MerchantService } from '@pcs/merchants';
import { Payin } from '../domain/payin';
import { PricingService } from '@pcs/settlement';
import * as crypto from 'node:crypto';
import { AvailableProcessorsService } from '../available-processors.service';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { AttemptOutcomes } from './attempt-outcomes';
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
    const earlier = operationId && (await this.ledger.get(this.unitOfWork.outside, operationId));
    if (earlier) return this.recordedAttempt(current, earlier);
    const payinId = operationId ?? crypto.randomUUID();
    // Refuse early what the state machine refuses, before a checkout is opened.
    PaymentIntent.restore(current.snapshot()).awaitPayerAtGateway(new Date());
    const processor = (await this.available.of(current)).find((p) => p.countryProcessorId === countryProcessorId);
    if (!processor) throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE');
    const snapshot = current.snapshot();
    // A payment below the processor's minimum would cost the merchant more than it brings (contract §24).
    await this.pricing.assertAboveMinimum(snapshot.merchantId, processor, current.total);
    const gateway = await this.routing.gatewayFor(snapshot.merchantId, processor);
    const method = collectionMethodOf(processor);
    // What the merchant offers in installments here (contract §25), and the plan asked for checked against it.
    const installmentOffer = await this.installments.offerFor(snapshot.merchantId, processor, gateway, current.total, installments);
    const identity = gateway.needsPayerIdentity(method) ? (payer ?? (await this.parties.payerIdentity(current))) : undefined;
    const merchantName = (await this.merchants.load(caller, snapshot.merchantId)).snapshot().merchantName;
    const expiresAt = new Date(Date.now() + this.settings.gateway.sessionMinutes * 60_000);
    let checkout: CheckoutSession | null = null;
    let lost: CheckoutOutcomeUnknownError | null = null;
    try {
      checkout = await gateway.openCheckout({
        payinId,
        merchantId: snapshot.merchantId,
        title: snapshot.description ?? snapshot.externalReference ?? merchantName,
        merchantName,
        paymentMethod: processor.paymentMethod.name,
        method,
        payer: identity,
        currency: snapshot.currency,
        amount: current.total.minor,
        expiresAt,
        returnUrl,
        // The offer goes to every gateway (Checkout Pro shows it on its page); the plan asked for only where our page or the sandbox's offers it.
        ...(installmentOffer
          ? { installmentOffer, ...(gateway.choosesInstallmentsOnItsPage ? {} : { installments: installments ?? 1 }) }
          : {}),
      });
    } catch (error) {
      if (!(error instanceof CheckoutOutcomeUnknownError)) throw error;
      lost = error;
    }

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
          installments,
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
      if (checkout) await gateway.closeCheckout(checkout.reference, 'CANCELLED').catch(() => undefined);
      throw error;
    }
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
    if (!gateway.needsPayerIdentity(method)) return null;
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
   * stays PENDING and reconciliation settles it.
   */
  async chargeOffSession(payinId: string, written?: { payin: Payin; instrumentToken: string | null }): Promise<void> {
    // What the creation that just committed the attempt already holds is not read again.
    const payin = written?.payin ?? (await this.ledger.get(this.unitOfWork.outside, payinId));
    if (!payin || payin.isFinal) return;
    const p = payin.snapshot();
    const processor = p.countryProcessorId ? (await this.catalog.findCountryProcessors([p.countryProcessorId]))[0] : undefined;
    if (!processor) return;
    const gateway = this.gateways.get(processor.gateway);
    // A charge in installments (contract §25): the merchant's offer goes with it, for a gateway that prices the plan.
    const installmentOffer =
      p.installments > 1 ? await this.installments.offerFor(p.merchantId, processor, gateway, Money.ofMinor(p.amount, p.currency)) : null;
    let token: string | null;
    if (written) token = written.instrumentToken;
    else {
      const intentNow = await this.intents.findById(this.unitOfWork.outside, p.paymentIntentId);
      token = intentNow ? await this.parties.instrumentToken(intentNow) : null;
    }
    let outcome: ChargeOutcome;
    try {
      outcome = await gateway.chargeOffSession({
        payinId,
        instrumentToken: token,
        merchantName: p.merchantName,
        paymentMethod: processor.paymentMethod.name,
        currency: p.currency,
        amount: p.amount,
        ...(installmentOffer ? { installments: p.installments, installmentOffer, method: collectionMethodOf(processor) } : {}),
      });
    } catch (error) {
      this.logger.warn(
        `off-session charge ${payinId} got no answer from ${gateway.name} (${(error as Error).message}); reconciliation will settle it`,
      );
      return;
    }
    await this.outcomes.applyChargeAnswer(payinId, gateway.name, outcome, p.paymentIntentId);
  }
}
