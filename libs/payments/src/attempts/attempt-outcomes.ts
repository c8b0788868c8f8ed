import { Injectable, Logger } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import type { ChargeOutcome, GatewayEvent } from '@pcs/gateways';
import { GatewayRegistry } from '@pcs/gateways';
import { Money, PaymentIntentId, Transaction, UnitOfWork } from '@pcs/kernel';
import { Payin } from '../domain/payin';
import { PricingService } from '@pcs/settlement';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PaymentAttemptParties } from './payment-attempt-parties';
import { PayinRepository } from '../ledger/payin.repository';

/** What a gateway said of an attempt, from a callback, a charge's answer or a lookup. */
export type AttemptOutcome = Omit<GatewayEvent, 'gateway'> & { gateway: string };

/**
 * The one set of rules for what an attempt's outcome does to its payin and
 * its intent, whichever way the outcome arrives (a gateway callback, the
 * answer to an off-session charge, reconciliation). Callers hold the intent's
 * row lock, then the payin's: the same order everywhere, so flows never
 * deadlock. Final payins absorb anything late.
 */
@Injectable()
export class AttemptOutcomes {
  private readonly logger = new Logger('PaymentAttempts');

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly pricing: PricingService,
    private readonly gateways: GatewayRegistry,
    private readonly parties: PaymentAttemptParties,
    private readonly settings: RuntimeSettings,
  ) {}

  /**
   * Applies an outcome to a locked intent and payin; nothing happens to a
   * final payin. `charged`: the charge's answer, whose token and card data the
   * instrument keeps (with its validation, in one write). True when the payin changed (and was saved).
   */
  async apply(tx: Transaction, intent: PaymentIntent, payin: Payin, event: AttemptOutcome, charged?: ChargeOutcome): Promise<boolean> {
    const now = new Date();
    const p = payin.snapshot();
    if (p.transactionType !== 'PAYIN') {
      if (charged) await this.parties.recordOnInstrument(tx, intent, { charged, validated: false });
      return false;
    }
    let changed: boolean;
    let validated = false;
    if (event.outcome === 'PENDING') {
      changed = payin.schedule('pending', now, this.settings.gateway.reconcileAfterSeconds * 1000);
      if (changed && intent.status === 'REQUIRES_ACTION') intent.markProcessing(now);
    } else if (event.outcome === 'APPROVED' && payin.isFinal) {
      // A final payin absorbs a late or repeated approval: no price is looked up for it.
      changed = false;
    } else if (event.outcome === 'APPROVED') {
      // Fixed for good with the approval (contracts §19, §23): the merchant's price now, when the money becomes available
      // (the processor's release date where it tells one), and whose account collected it.
      const terms = await this.pricing.approvalTerms(
        {
          merchantId: p.merchantId,
          countryProcessorId: p.countryProcessorId,
          received: Money.ofMinor(p.amount, p.currency),
          approvedAt: now,
          releasedOn: event.releasedOn,
        },
        tx,
      );
      const fundsFlow = p.gateway ? await this.gateways.get(p.gateway).fundsFlowOf(p.merchantId, tx) : 'PLATFORM';
      changed = payin.approve(
        'approved',
        now,
        { ...terms, fundsFlow },
        {
          maskedPan: event.maskedPan,
          cardType: event.cardType,
          processorFeeAmount: event.processorFeeAmount,
          processorFinancingFeeAmount: event.processorFinancingFeeAmount,
          plan: event.plan,
        },
      );
      if (changed && (intent.status === 'REQUIRES_ACTION' || intent.status === 'PROCESSING')) {
        const paid = payin.snapshot();
        intent.succeed(
          event.reference,
          now,
          paid.installments > 1
            ? {
                installments: paid.installments,
                installmentAmount: paid.installmentAmount,
                payerTotalAmount: paid.payerTotalAmount,
                financingFeeAmount: paid.processorFinancingFeeAmount ?? 0,
              }
            : null,
        );
        validated = true;
      } else if (changed) {
        this.logger.warn(`payin ${payin.id} approved while its intent is ${intent.status}`);
      }
    } else {
      changed = payin.reject(event.error ?? 'rejected', now);
      if (changed && (intent.status === 'REQUIRES_ACTION' || intent.status === 'PROCESSING'))
        intent.fail(event.error ?? 'the payment was rejected', now);
    }
    if (charged || validated) await this.parties.recordOnInstrument(tx, intent, { charged, validated });
    if (!changed) return false;
    await this.ledger.save(tx, payin);
    await this.intents.save(tx, intent);
    return true;
  }

  /** Applies what a gateway answered about a charge (its answer, or a lookup's), in a transaction of its own. */
  /**
   * Applies what a gateway answered about a charge (its answer, or a
   * lookup's), in a transaction of its own: the intent locked, then the
   * payin; the gateway's reference bound, the outcome applied and the
   * instrument taught, each row written once. `paymentIntentId`, when the
   * caller knows it, spares the read that finds it.
   */
  async applyChargeAnswer(
    payinId: string,
    gatewayName: string,
    outcome: ChargeOutcome,
    paymentIntentId?: PaymentIntentId,
  ): Promise<PaymentIntent | null> {
    return this.unitOfWork.run(async (tx) => {
      const intentId = paymentIntentId ?? (await this.ledger.get(tx, payinId))?.snapshot().paymentIntentId;
      const intent = intentId && (await this.intents.lockById(tx, intentId));
      const locked = await this.ledger.get(tx, payinId, true);
      if (!intent || !locked || locked.isFinal || locked.snapshot().paymentIntentId !== intent.id) return null;
      const bound = !locked.snapshot().externalId;
      if (bound) locked.bindGatewayReference(outcome.reference, null, new Date());
      const { status, error, maskedPan, cardType, processorFeeAmount, processorFinancingFeeAmount, releasedOn, plan } = outcome;
      const changed = await this.apply(
        tx,
        intent,
        locked,
        {
          gateway: gatewayName,
          eventId: `charge:${outcome.reference}`,
          reference: outcome.reference,
          outcome: status,
          error,
          maskedPan,
          cardType,
          processorFeeAmount,
          processorFinancingFeeAmount,
          releasedOn,
          plan,
        },
        outcome,
      );
      // The reference alone, when the outcome changed nothing else (applied, the payin was saved with it).
      if (bound && !changed) await this.ledger.save(tx, locked);
      // The intent as this transaction left it (written when the outcome changed it): what a caller answers with, unread.
      return intent;
    });
  }

  /** Closes an attempt's checkout at its gateway; a failure is logged, never thrown (the payin is already final). */
  async closeCheckoutQuietly(payin: Payin, reason: 'CANCELLED' | 'EXPIRED'): Promise<void> {
    const p = payin.snapshot();
    if (!p.gateway || !p.externalId) return;
    try {
      await this.gateways.get(p.gateway).closeCheckout(p.externalId, reason);
    } catch (error) {
      this.logger.warn(`could not close checkout ${p.externalId}: ${(error as Error).message}`);
    }
  }
}
