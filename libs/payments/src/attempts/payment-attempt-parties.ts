import { Injectable } from '@nestjs/common';
import { CountryProcessor } from '@pcs/catalog';
import { RuntimeSettings } from '@pcs/config';
import { ChargeOutcome, PayerIdentity } from '@pcs/gateways';
import { MerchantService } from '@pcs/merchants';
import { PayerService } from '@pcs/payers';
import { ConceptCode, Payin, PaymentIntentInitiator } from '../domain/payin';
import { InstrumentLesson, PaymentInstrumentProps, PaymentInstrumentService } from '@pcs/payment-instruments';
import { ChangeAlongside, FundsFlow, Money, RefundOrigin, Transaction } from '@pcs/kernel';
import { PaymentIntent } from '../domain/payment-intent';

/**
 * What a payin records about the parties of a payment — merchant name and
 * account, the payer's name — and what an attempt's outcome teaches the
 * instrument, gathered from the neighbouring contexts through their services.
 */
@Injectable()
export class PaymentAttemptParties {
  constructor(
    private readonly merchants: MerchantService,
    private readonly payers: PayerService,
    private readonly instruments: PaymentInstrumentService,
    private readonly settings: RuntimeSettings,
  ) {}

  /**
   * A PAYIN record for a collection attempt (PENDING), naming the intent's
   * payer (`payer` when the caller holds it, else read). `fundsFlow` is whose
   * account the gateway collects into now; the approval fixes it for good.
   */
  async newAttempt(
    tx: Transaction,
    intent: PaymentIntent,
    processor: CountryProcessor,
    fundsFlow: FundsFlow,
    initiator: PaymentIntentInitiator,
    transactionId: string,
    now: Date,
    payer?: { readonly firstName: string | null; readonly lastName: string | null },
    installments = 1,
  ): Promise<Payin> {
    const { payerId } = intent.snapshot();
    const named = payer ?? (payerId ? await this.payers.findById(payerId, tx) : null);
    const person = { firstName: named?.firstName ?? null, lastName: named?.lastName ?? null };
    return this.record(intent, {
      transactionId,
      processor,
      initiator,
      concept: 'PAYIN',
      amount: intent.total,
      person,
      fundsFlow,
      origin: null,
      now,
      installments,
    });
  }

  /**
   * A REFUND record (PENDING) of `amount`, made by `origin`. It pays back the
   * payer of the approved collection `charge`, named as that record names
   * them (read with the intent: no read of the payer), in that collection's
   * funds flow (contract §23).
   */
  async newRefund(
    intent: PaymentIntent,
    charge: Payin | null,
    transactionId: string,
    amount: Money,
    concept: ConceptCode,
    origin: RefundOrigin,
    now: Date,
  ): Promise<Payin> {
    const paid = charge?.snapshot();
    const person = { firstName: paid?.personFirstName ?? null, lastName: paid?.personLastName ?? null };
    return this.record(intent, {
      transactionId,
      processor: null,
      initiator: 'MERCHANT',
      concept,
      amount,
      person,
      fundsFlow: paid?.fundsFlow ?? 'PLATFORM',
      origin,
      now,
    });
  }

  /** The intent's payer as a gateway that verifies payers needs them (contract §20); nulls where the record has nothing. */
  async payerIdentity(intent: PaymentIntent): Promise<PayerIdentity> {
    const { payerId, receiptEmail } = intent.snapshot();
    const payer = payerId ? await this.payers.findById(payerId) : null;
    const name = [payer?.firstName, payer?.lastName].filter((part) => part && part.trim()).join(' ');
    return {
      name: name || null,
      email: payer?.email ?? receiptEmail ?? null,
      document: payer?.documentNumber ?? null,
      documentType: payer?.documentType ?? null,
    };
  }

  async instrumentToken(intent: PaymentIntent): Promise<string | null> {
    return (await this.instrumentCharged(intent)).token;
  }

  /** The intent's instrument as a charge names it: its token, and the processor that keeps its card (null: none). */
  async instrumentCharged(intent: PaymentIntent): Promise<{ token: string | null; processor: string | null }> {
    const instrumentId = intent.snapshot().paymentInstrumentId;
    return instrumentId ? this.instruments.chargedAs(instrumentId) : { token: null, processor: null };
  }

  /**
   * What an attempt's outcome teaches the intent's instrument, in one read
   * and at most one write: the token and masked card data a charge's answer
   * carried (`charged`), and that an approval validated it (`validated`).
   */
  async recordOnInstrument(
    tx: Transaction,
    intent: PaymentIntent,
    learned: { charged?: ChargeOutcome; validated: boolean },
  ): Promise<void> {
    const instrumentId = intent.snapshot().paymentInstrumentId;
    const lesson = lessonOf(learned);
    if (!instrumentId || !lesson) return;
    await this.instruments.recordOutcome(tx, instrumentId, lesson);
  }

  /** recordOnInstrument for an instrument the caller read (`held`): the write to run in the caller's statement, or null (nothing new). */
  instrumentLesson(
    held: Readonly<PaymentInstrumentProps>,
    learned: { charged?: ChargeOutcome; validated: boolean },
  ): ChangeAlongside | null {
    const lesson = lessonOf(learned);
    return lesson && this.instruments.lessonAlongside(held, lesson);
  }

  private async record(
    intent: PaymentIntent,
    input: {
      transactionId: string;
      processor: CountryProcessor | null;
      initiator: PaymentIntentInitiator;
      concept: ConceptCode;
      amount: Money;
      person: { firstName: string | null; lastName: string | null };
      fundsFlow: FundsFlow;
      origin: RefundOrigin | null;
      now: Date;
      installments?: number;
    },
  ): Promise<Payin> {
    const p = intent.snapshot();
    // The merchant's name and service account from memory (a committed merchant, kept fresh by the change feed), not re-read in
    // the transaction: every attempt and refund names an existing merchant.
    const merchant = await this.merchants.findById(p.merchantId);
    const isPayin = input.concept === 'PAYIN';
    // A refund's tax share is proportional to the gross it refunds.
    const share = isPayin ? { subtotal: intent.subtotalAmount, tax: p.taxAmount, tip: p.tipAmount } : refundShares(intent, input.amount);
    return Payin.open({
      transactionId: input.transactionId,
      businessId: p.businessId,
      merchantId: p.merchantId,
      paymentIntentId: p.paymentIntentId,
      accountId: merchant?.account.serviceAccount ?? null,
      transactionType: isPayin ? 'PAYIN' : 'REFUND',
      conceptCode: input.concept,
      countryProcessorId: input.processor?.countryProcessorId ?? null,
      gateway: input.processor?.gateway ?? null,
      externalId: null,
      currency: p.currency,
      // The mapper's side of the edge: from here on the record holds minor units.
      amount: input.amount.minor,
      subtotalAmount: share.subtotal,
      taxAmount: share.tax,
      tipAmount: share.tip,
      description: p.description,
      merchantName: merchant?.merchantName ?? '',
      personFirstName: input.person.firstName,
      personLastName: input.person.lastName,
      paymentIntentInitiator: input.initiator,
      sessionExpiresAt: null,
      // Off-session charges and gateway refunds wait on a gateway call made after this commit;
      // if nothing is heard by then (a crash, a lost answer), reconciliation asks the gateway.
      // Checkouts at a payer's page expire instead; manual refunds wait for the merchant.
      reconcileAt:
        input.concept === 'REFUND' || (isPayin && input.initiator === 'MERCHANT')
          ? new Date(input.now.getTime() + this.settings.gateway.reconcileAfterSeconds * 1000)
          : null,
      manualRefundStatus: input.concept === 'MANUAL_REFUND' ? 'MANUAL_REFUND_PENDING' : null,
      fundsFlow: input.fundsFlow,
      origin: input.origin,
      installments: input.installments,
      createdAt: input.now,
    });
  }
}

/**
 * Splits a refunded amount into tip, tax and subtotal in the intent's
 * proportions: the tip's share of the total, then the tax's share of what is
 * left, each rounded down; the subtotal takes the rest, so the parts add back.
 */
export function refundShares(intent: PaymentIntent, refunded: Money): { subtotal: number; tax: number; tip: number } {
  const p = intent.snapshot();
  const tip = refunded.proportion(p.tipAmount, p.amount + p.tipAmount);
  const gross = refunded.minus(tip);
  const tax = p.amount === 0 ? Money.zero(p.currency) : gross.proportion(p.taxAmount, p.amount);
  return { subtotal: gross.minus(tax).minor, tax: tax.minor, tip: tip.minor };
}

/** What an outcome teaches an instrument: the token and masked card data a charge's answer carried, and an approval's validation. */
function lessonOf(learned: { charged?: ChargeOutcome; validated: boolean }): InstrumentLesson | null {
  const charged = learned.charged?.instrumentToken ? learned.charged : undefined;
  if (!charged && !learned.validated) return null;
  const last4 = charged?.maskedPan?.slice(-4);
  return {
    gatewayData: charged && {
      externalId: charged.instrumentToken!,
      ...(charged.cardType ? { cardBrand: charged.cardType } : {}),
      ...(last4 && /^\d{4}$/.test(last4) ? { cardLast4: last4 } : {}),
    },
    validated: learned.validated,
  };
}
