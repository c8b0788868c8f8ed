import { Injectable, Logger } from '@nestjs/common';
import { RuntimeSettings } from '@pcs/config';
import type { ChargeOutcome, GatewayEvent } from '@pcs/gateways';
import { closesCheckouts, GatewayRegistry } from '@pcs/gateways';
import { Money, PaymentIntentId, Transaction, TransactionStatus, UnitOfWork } from '@pcs/kernel';
import { Payin } from '../domain/payin';
import { PricingService } from '@pcs/settlement';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PaymentAttemptParties } from './payment-attempt-parties';
import { PayinRepository } from '../ledger/payin.repository';
import { CardTestingGuard } from '../card-testing/card-testing.guard';
import type { PaymentInstrumentProps } from '@pcs/payment-instruments';

/** What a gateway said of an attempt, from a callback, a charge's answer or a lookup. */
export type AttemptOutcome = Omit<GatewayEvent, 'gateway'> & { gateway: string };

/** An off-session charge's intent and attempt as the creation's one statement wrote them (`writtenIn`: its transaction's id). */
export interface WrittenCharge {
  readonly intent: PaymentIntent;
  readonly payin: Payin;
  readonly writtenIn: string;
  /** The instrument charged, as the creation read it. */
  readonly instrument: Readonly<PaymentInstrumentProps>;
}

/** A charge's answer as the outcome of its attempt. */
function chargeEvent(gatewayName: string, outcome: ChargeOutcome): AttemptOutcome {
  const { status, error, maskedPan, cardType, processorFeeAmount, processorFinancingFeeAmount, releasedOn, plan } = outcome;
  return {
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
  };
}

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
    private readonly cardTesting: CardTestingGuard,
  ) {}

  /**
   * Applies an outcome to a locked intent and payin; nothing happens to a
   * final payin. `charged`: the charge's answer, whose token and card data the
   * instrument keeps (with its validation, in one write). True when the payin changed (and was saved).
   */
  async apply(tx: Transaction, intent: PaymentIntent, payin: Payin, event: AttemptOutcome, charged?: ChargeOutcome): Promise<boolean> {
    if (payin.snapshot().transactionType !== 'PAYIN') {
      if (charged) await this.parties.recordOnInstrument(tx, intent, { charged, validated: false });
      return false;
    }
    const { changed, validated } = await this.decide(tx, intent, payin, event);
    if (charged || validated) await this.parties.recordOnInstrument(tx, intent, { charged, validated });
    if (!changed) return false;
    await this.ledger.save(tx, payin);
    await this.intents.save(tx, intent);
    // A decline of an attempt a public page started counts towards the card-testing guard (contract §30), in this transaction.
    if (payin.snapshot().status === TransactionStatus.REJECTED) await this.cardTesting.declined(tx, intent.id, event.card);
    return true;
  }

  /**
   * What an outcome does to a collection attempt (a PAYIN record) and its
   * intent, in memory: `changed` when the payin changed, `validated` when an
   * approval proved the instrument. Reads nothing of the two (`tx` serves the
   * merchant's price, from memory as a rule).
   */
  private async decide(
    tx: Transaction,
    intent: PaymentIntent,
    payin: Payin,
    event: AttemptOutcome,
  ): Promise<{ changed: boolean; validated: boolean }> {
    const now = new Date();
    const p = payin.snapshot();
    if (event.outcome === 'PENDING') {
      const changed = payin.schedule('pending', now, this.settings.gateway.reconcileAfterSeconds * 1000);
      if (changed && intent.status === 'REQUIRES_ACTION') intent.markProcessing(now);
      return { changed, validated: false };
    }
    // A final payin absorbs a late or repeated approval: no price is looked up for it.
    if (event.outcome === 'APPROVED' && payin.isFinal) return { changed: false, validated: false };
    if (event.outcome === 'APPROVED') {
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
      const changed = payin.approve(
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
        return { changed, validated: true };
      }
      if (changed) this.logger.warn(`payin ${payin.id} approved while its intent is ${intent.status}`);
      return { changed, validated: false };
    }
    const changed = payin.reject(event.error ?? 'rejected', now);
    if (changed && (intent.status === 'REQUIRES_ACTION' || intent.status === 'PROCESSING'))
      intent.fail(event.error ?? 'the payment was rejected', now);
    return { changed, validated: false };
  }

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
      const changed = await this.apply(tx, intent, locked, chargeEvent(gatewayName, outcome), outcome);
      // The reference alone, when the outcome changed nothing else (applied, the payin was saved with it).
      if (bound && !changed) await this.ledger.save(tx, locked);
      // The intent as this transaction left it (written when the outcome changed it): what a caller answers with, unread.
      return intent;
    });
  }

  /**
   * applyChargeAnswer for the attempt a creation has just written with its
   * intent (`written`: both as that statement wrote them, the id of its
   * transaction, and the instrument it charged as the creation read it),
   * without reading them again: one statement writes the payin, the intent
   * with its events, and what the instrument learned, only if neither row was
   * written since. Null when one was (a callback, a cancellation or
   * reconciliation got there first) or the answer changes nothing of the
   * intent: the caller then applies it with applyChargeAnswer, which reads
   * and locks them.
   */
  async applyChargeAnswerToWritten(written: WrittenCharge, gatewayName: string, outcome: ChargeOutcome): Promise<PaymentIntent | null> {
    const { intent, payin, writtenIn, instrument } = written;
    if (payin.isFinal || payin.snapshot().externalId) return null;
    payin.bindGatewayReference(outcome.reference, null, new Date());
    const { changed, validated } = await this.decide(this.unitOfWork.outside, intent, payin, chargeEvent(gatewayName, outcome));
    if (!changed) return null;
    const lesson = this.parties.instrumentLesson(instrument, { charged: outcome, validated });
    const saved = await this.intents.saveChargedWith(this.unitOfWork.outside, intent, payin, writtenIn, lesson ? [lesson] : []);
    return saved ? intent : null;
  }

  /** Closes an attempt's checkout at its gateway; a failure is logged, never thrown (the payin is already final). */
  async closeCheckoutQuietly(payin: Payin, reason: 'CANCELLED' | 'EXPIRED'): Promise<void> {
    const p = payin.snapshot();
    if (!p.gateway || !p.externalId) return;
    const gateway = this.gateways.get(p.gateway);
    // A processor whose page cannot be closed lets it expire; a payment made on it anyway meets a final attempt.
    if (!closesCheckouts(gateway)) return;
    try {
      await gateway.closeCheckout(p.externalId, reason);
    } catch (error) {
      this.logger.warn(`could not close checkout ${p.externalId}: ${(error as Error).message}`);
    }
  }
}
