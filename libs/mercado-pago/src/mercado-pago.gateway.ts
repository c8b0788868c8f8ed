/*
 * Why one file: Mercado Pago's adapter and the pure readings of its payment, refund and plan objects: they
 * change together when its documentation does.
 */
import { Injectable } from '@nestjs/common';
import { ProcessorApi, RuntimeSettings } from '@pcs/config';
import { DomainError, FundsFlow, isCurrency, Money, Transaction } from '@pcs/kernel';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import {
  cardPartsOf,
  CardFields,
  CardHolder,
  CardNotSavedError,
  ChargeOutcome,
  ChargeRequest,
  ChargesOffSession,
  DeclineKind,
  declineKindIn,
  SavedCard,
  SavesCards,
  TakesDisputeEvidence,
  QuotesInstallments,
  ChoosesInstallmentsOnItsPage,
  ReadsPayments,
  ReturnsManualRefunds,
  AnswersAfterItsPage,
  CheckoutRequest,
  CheckoutSession,
  DisputeEvidenceFile,
  DisputeReport,
  GatewayEvent,
  GatewayRequestStatus,
  GatewayNotice,
  InstallmentQuoteRequest,
  PaymentGateway,
  ProcessorInstallmentPlan,
  ProcessorAmountError,
  processorMinor,
  ProcessorRefund,
  RefundOutcome,
  RefundRequest,
} from '@pcs/gateways';
import { MercadoPagoClient, MercadoPagoPayment, MercadoPagoRequestError } from './mercado-pago.client';
import { MERCADO_PAGO, MERCADO_PAGO_API, mercadoPagoCredentials, mercadoPagoSettings } from './mercado-pago-account';
import { MERCADO_PAGO_CARD_FIELDS } from './mercado-pago-card-fields';
import { readCardReference, savedCardOf } from './mercado-pago-cards';
import { MERCADO_PAGO_DECLINES } from './mercado-pago-declines';
import { claimOf, disputeNotice } from './mercado-pago-disputes';
import { isRefusal, mercadoPagoFailure } from './mercado-pago-failures';
import { MercadoPagoRecords } from './persistence/mercado-pago-records.repository';

/**
 * Mercado Pago's payment statuses, as the attempt's outcome (contracts §16,
 * §23). A refunded payment was collected (its refunds are news of their own);
 * a payment charged back or under a claim (`in_mediation`) never counts as
 * approved: a chargeback of an attempt we never saw approved ends it unpaid,
 * a claim keeps it waiting for Mercado Pago's decision.
 */
export function outcomeOfPayment(payment: MercadoPagoPayment): GatewayEvent['outcome'] {
  switch (payment.status) {
    case 'approved':
    case 'refunded':
      return 'APPROVED';
    case 'rejected':
    case 'cancelled':
    case 'charged_back':
      return 'REJECTED';
    default: // pending, in_process, authorized, in_mediation
      return 'PENDING';
  }
}

/**
 * A payment as the attempt's outcome: the event id is the payment and its
 * status, so the same news twice is applied once and a later status is news.
 * An approval carries Mercado Pago's fee (financing apart) and the day it
 * releases the money (`money_release_date`, contract §23).
 */
export function eventOfPayment(payment: MercadoPagoPayment): GatewayEvent {
  const outcome = outcomeOfPayment(payment);
  const processorFeeAmount = outcome === 'APPROVED' ? collectorFees(payment, (type) => type !== 'financing_fee') : undefined;
  const processorFinancingFeeAmount = outcome === 'APPROVED' ? collectorFees(payment, (type) => type === 'financing_fee') : undefined;
  const released = outcome === 'APPROVED' && payment.money_release_date ? new Date(payment.money_release_date) : null;
  return {
    gateway: MERCADO_PAGO,
    eventId: `payment:${payment.id}:${payment.status}`,
    reference: String(payment.id),
    outcome,
    error:
      outcome === 'REJECTED'
        ? payment.status === 'charged_back'
          ? 'Mercado Pago: charged back by the payer’s bank'
          : `Mercado Pago: ${payment.status_detail ?? payment.status}`
        : undefined,
    maskedPan: payment.card?.last_four_digits ? `************${payment.card.last_four_digits}` : undefined,
    ...cardOfPayment(payment),
    ...(processorFeeAmount === undefined ? {} : { processorFeeAmount }),
    ...(processorFinancingFeeAmount === undefined ? {} : { processorFinancingFeeAmount }),
    ...(released && !Number.isNaN(released.getTime()) ? { releasedOn: released } : {}),
    ...(outcome === 'APPROVED' ? planOfPayment(payment) : {}),
  };
}

/** The card of a payment (contract §30: the card-testing guard), when Mercado Pago reports its BIN, last four and expiry. */
function cardOfPayment(payment: MercadoPagoPayment): Pick<GatewayEvent, 'card'> {
  const c = payment.card;
  const card = c ? cardPartsOf(c.first_six_digits, c.last_four_digits, c.expiration_month, c.expiration_year) : undefined;
  return card ? { card } : {};
}

/** The installments the payer chose at Checkout Pro (contract §25), with what they pay each and in all; none for a single payment. */
function planOfPayment(payment: MercadoPagoPayment): Pick<GatewayEvent, 'plan'> {
  const currency = payment.currency_id;
  const details = payment.transaction_details;
  const installments = payment.installments;
  if (!installments || installments < 2 || installments > 24 || !currency || !isCurrency(currency)) return {};
  // Read exactly from its decimals (contract §28): an answer whose amounts cannot be read fails, and nothing is booked from it.
  const minor = (value: number | null | undefined, what: string) =>
    value === null || value === undefined ? null : processorMinor(MERCADO_PAGO, value, currency, `payment ${payment.id} ${what}`);
  const installmentAmount = minor(details?.installment_amount, 'installment_amount');
  const payerTotalAmount = minor(details?.total_paid_amount, 'total_paid_amount');
  if (installmentAmount === null || payerTotalAmount === null) return {};
  return { plan: { installments, installmentAmount, payerTotalAmount } };
}

/** The refunds Mercado Pago lists on a payment (contract §23), in minor units of its currency; none readable, none. */
export function refundsOfPayment(payment: MercadoPagoPayment): ProcessorRefund[] {
  const currency = payment.currency_id;
  if (!currency || !isCurrency(currency)) return [];
  return (payment.refunds ?? []).flatMap((refund) => {
    if (refund.id === undefined) return [];
    // An amount that cannot be read exactly fails the read (contract §28): nothing is booked from it.
    const amount = processorMinor(MERCADO_PAGO, refund.amount, currency, `refund ${String(refund.id)} amount`);
    if (amount <= 0) return [];
    const status =
      refund.status === 'approved' ? 'APPROVED' : refund.status === 'rejected' || refund.status === 'cancelled' ? 'REJECTED' : 'PENDING';
    return [{ reference: String(refund.id), amount, currency, status } as const];
  });
}

/**
 * What Mercado Pago charged the seller on a payment (its `fee_details` paid
 * by the collector) of the types `counted`, in minor units of the payment's
 * currency; undefined when it reported none (contract §19: processorFeeAmount,
 * for margin reports; the financing fee is kept apart).
 */
export function collectorFees(payment: MercadoPagoPayment, counted: (type: string) => boolean = () => true): number | undefined {
  const fees = (payment.fee_details ?? []).filter(
    (fee) => fee.fee_payer === 'collector' && typeof fee.amount === 'number' && counted(fee.type ?? ''),
  );
  const currency = payment.currency_id;
  if (fees.length === 0 || !currency || !isCurrency(currency)) return undefined;
  let total = 0;
  for (const fee of fees) total += processorMinor(MERCADO_PAGO, fee.amount, currency, `payment ${payment.id} fee ${fee.type ?? ''}`);
  return total;
}

/** Which of several payments for one attempt tells its outcome: a collected one, else one under way, else the latest. */
function decisive(payments: MercadoPagoPayment[]): MercadoPagoPayment | undefined {
  return (
    payments.find((p) => outcomeOfPayment(p) === 'APPROVED') ??
    payments.find((p) => outcomeOfPayment(p) === 'PENDING') ??
    [...payments].sort((a, b) => b.id - a.id)[0]
  );
}

/**
 * Mercado Pago behind the gateway port (contract §16), each merchant with its
 * own account: a collection attempt is a Checkout Pro preference whose
 * `external_reference` is the attempt's id; the outcome arrives by a verified
 * notification (MercadoPagoNotifications) or by reconciliation (`lookup`,
 * searching payments by that reference); refunds go to the payment's refunds
 * with the refund's id as idempotency key. Amounts cross to Mercado Pago as
 * decimals in the currency's precision, here and nowhere else.
 */
@Injectable()
export class MercadoPagoGateway
  extends PaymentGateway
  implements
    TakesDisputeEvidence,
    QuotesInstallments,
    ChoosesInstallmentsOnItsPage,
    ReadsPayments,
    ReturnsManualRefunds,
    AnswersAfterItsPage,
    ChargesOffSession,
    SavesCards
{
  readonly name = MERCADO_PAGO;
  readonly displayName = 'Mercado Pago';
  /** Checkout Pro shows the payer the installments itself (contract §25). */
  readonly installmentsChosenAt = 'ITS_PAGE';

  /** Whose account the merchant connected (contract §23): its own (MERCHANT, the default) or the business's (PLATFORM). */
  override fundsFlowOf(merchantId: string, tx?: Transaction): Promise<FundsFlow> {
    return this.accounts.fundsFlowOf(merchantId, MERCADO_PAGO, tx);
  }

  constructor(
    private readonly accounts: GatewayAccounts,
    private readonly records: MercadoPagoRecords,
    private readonly settings: RuntimeSettings,
  ) {
    super();
  }

  /**
   * Its Secure Fields on our setup page (contract §31): MercadoPago.js with the merchant's public key tokenizes the card
   * in the payer's browser. None without a public key on the account.
   */
  async cardFields(merchantId: string, _country: string, tx?: Transaction): Promise<CardFields | null> {
    const settings = await mercadoPagoSettings(this.accounts, merchantId, tx);
    if (!settings?.publicKey) return null;
    const api = this.api;
    const script = api.browserScript ?? MERCADO_PAGO_API.browserScript;
    return {
      processor: MERCADO_PAGO,
      displayName: this.displayName,
      mount: MERCADO_PAGO_CARD_FIELDS,
      script,
      publicKey: settings.publicKey,
      origins: [...new Set([new URL(script).origin, new URL(api.url).origin])],
    };
  }

  /**
   * The card a token of its fields stands for, saved for the payer (contract §31): the account's customer of the
   * payer's e-mail (found, or made), and the card saved for it (`POST /v1/customers/:id/cards`). The customer's
   * idempotency key is the payer, the card's the token: a retry after a lost answer saves nothing twice.
   */
  async saveCard(merchantId: string, payer: CardHolder, token: string): Promise<SavedCard> {
    // Its customers are known by their e-mail: a payer without one cannot keep a card there.
    if (!payer.email) throw new CardNotSavedError('Mercado Pago keeps cards for customers with an e-mail; the payer has none');
    const client = await this.clientOf(merchantId);
    try {
      const email = payer.email;
      const customer = (await client.findCustomer(email)) ?? (await client.createCustomer(email, `customer:${payer.payerId}`));
      return savedCardOf(customer.id, await client.saveCard(customer.id, token, `card:${token}`));
    } catch (error) {
      throw mercadoPagoFailure('save-card', error);
    }
  }

  /** Saved cards are charged without their code only where Mercado Pago enabled automatic payments (contract §31). */
  async offSessionAvailable(merchantId: string, tx?: Transaction): Promise<boolean> {
    return (await mercadoPagoSettings(this.accounts, merchantId, tx))?.offSessionEnabled === true;
  }

  /**
   * A saved card charged without the payer (contract §31; Mercado Pago's automatic payments): a token for the card
   * made by the server (`POST /v1/card_tokens` with the card and its customer, no security code), then the payment
   * (`POST /v1/payments`, the customer as payer, our attempt's id as idempotency key and external reference, so a
   * retry or a lookup finds the one payment). A refusal before any payment is a rejected attempt. The payer present
   * (one-click): the token their browser made of the saved card with its security code (`cardToken`) pays instead,
   * without automatic payments.
   */
  async chargeOffSession(request: ChargeRequest): Promise<ChargeOutcome> {
    const card = readCardReference(request.instrumentToken);
    if (!card) return { status: 'REJECTED', reference: request.payinId, error: 'Mercado Pago: the instrument is no card it keeps for us' };
    const credentials = await mercadoPagoCredentials(this.accounts, request.merchantId);
    if (!credentials) throw new DomainError('GATEWAY_ACCOUNT_NOT_FOUND', undefined, { provider: this.displayName });
    const client = this.clientWith(credentials.accessToken);
    if (!credentials.offSessionEnabled && !request.cardToken) {
      // A payer-present charge sent again without its single-use token (a crash before its answer): the payment our
      // attempt made, if it made one; otherwise nothing can be charged without automatic payments.
      const made = decisive(await client.searchPayments(request.payinId));
      if (made) {
        const { outcome, reference, gateway: _gateway, eventId: _eventId, ...details } = eventOfPayment(made);
        return { status: outcome, reference, ...details };
      }
      return { status: 'REJECTED', reference: request.payinId, error: 'Mercado Pago: automatic payments are not enabled for the account' };
    }
    try {
      const token = request.cardToken
        ? { id: request.cardToken }
        : await client.cardToken(card.cardId, card.customerId, `token:${request.payinId}`);
      const payment = await client.createPayment(
        {
          transaction_amount: Money.ofMinor(request.amount, request.currency).toWire(),
          token: token.id,
          installments: 1,
          payment_method_id: card.paymentMethodId,
          payer: { type: 'customer', id: card.customerId },
          external_reference: request.payinId,
          notification_url: `${this.settings.publicBaseUrl}/gateways/mercado-pago/notifications/${request.merchantId}`,
          description: request.merchantName.slice(0, 256),
          // Approved or rejected at once, never left in review: an off-session charge has nobody to wait for.
          binary_mode: true,
        },
        request.payinId,
      );
      // Its fee and the day it releases the money come with the approval (contract §23), as a notification would bring them.
      const { outcome, reference, gateway: _gateway, eventId: _eventId, ...details } = eventOfPayment(payment);
      return { status: outcome, reference, ...details };
    } catch (error) {
      const failure = mercadoPagoFailure('charge', error);
      if (isRefusal(failure)) return { status: 'REJECTED', reference: request.payinId, error: failure.refused };
      throw failure;
    }
  }

  /** Its refusals are `Mercado Pago: <status_detail>`; their kind is its decline table's. */
  declineKindOf(error: string): DeclineKind | undefined {
    const detail = /^Mercado Pago: (\S+)$/.exec(error)?.[1];
    return detail && Object.hasOwn(MERCADO_PAGO_DECLINES, detail) ? declineKindIn(MERCADO_PAGO_DECLINES, detail) : undefined;
  }

  /** Mercado Pago takes a chargeback's documentation through its API (contract §21): TakesDisputeEvidence. */
  async submitDisputeEvidence(merchantId: string, reference: string, files: readonly DisputeEvidenceFile[]): Promise<void> {
    const client = await this.clientOf(merchantId);
    await client.uploadChargebackDocumentation(reference, files).catch((error: unknown) => {
      throw mercadoPagoFailure('evidence', error);
    });
  }

  /**
   * Mercado Pago's own offer for the card (`GET /v1/payment_methods/installments`): interest-free
   * plans are those of the seller's promotions at Mercado Pago (installment_rate 0), whose financing
   * fee the payment reports when approved (fee_details financing_fee), not the quote.
   */
  async quoteInstallments(request: InstallmentQuoteRequest): Promise<readonly ProcessorInstallmentPlan[]> {
    const methodId = request.method.paymentMethod.toLowerCase();
    // Checkout Pro's wallet method takes any card: the BIN says which.
    const anyCard = request.method.paymentMethod === 'MERCADO_PAGO';
    if (anyCard && !request.bin)
      throw new DomainError('INSTALLMENTS_NOT_QUOTED', undefined, {
        provider: this.displayName,
        reason: 'it needs the card’s first digits (bin)',
      });
    const client = await this.clientOf(request.merchantId);
    const amount = Money.ofMinor(request.amount, request.currency);
    const offers = await client
      .installments(amount.toWire(), request.bin ? { bin: request.bin } : { paymentMethodId: methodId })
      .catch((error: unknown) => {
        throw mercadoPagoFailure('quote', error);
      });
    const offer = offers.find((o) => (anyCard ? o.payment_type_id === 'credit_card' : o.payment_method_id === methodId));
    if (!offer)
      throw new DomainError('INSTALLMENTS_NOT_QUOTED', undefined, {
        provider: this.displayName,
        reason: `the card is not ${request.method.paymentMethod}`,
      });
    // Its decimals read exactly (contract §28): an offer whose amounts cannot be read fails the quote.
    const minor = (value: number, what: string) =>
      processorMinor(MERCADO_PAGO, value, request.currency, `installments of ${offer.payment_method_id} ${what}`);
    return offer.payer_costs.map((cost) => ({
      installments: cost.installments,
      installmentAmount: minor(cost.installment_amount, `${cost.installments} installment_amount`),
      totalAmount: cost.installment_rate === 0 ? request.amount : minor(cost.total_amount, `${cost.installments} total_amount`),
      merchantFinancingFee: null,
    }));
  }

  async openCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const client = await this.clientOf(request.merchantId);
    const base = this.settings.publicBaseUrl;
    const back = `${base}/gateways/mercado-pago/return/${request.payinId}`;
    const preference = await client
      .createPreference(
        {
          items: [
            {
              id: request.payinId,
              title: request.title.slice(0, 256),
              quantity: 1,
              unit_price: Money.ofMinor(request.amount, request.currency).toWire(),
              currency_id: request.currency,
            },
          ],
          external_reference: request.payinId,
          back_urls: { success: back, pending: back, failure: back },
          auto_return: 'approved',
          notification_url: `${base}/gateways/mercado-pago/notifications/${request.merchantId}`,
          expires: true,
          expiration_date_from: new Date().toISOString(),
          expiration_date_to: request.expiresAt.toISOString(),
          // The merchant's installments (contract §25): the most, and its interest-free ones preselected.
          ...(request.installmentOffer
            ? {
                payment_methods: {
                  installments: request.installmentOffer.maxInstallments,
                  ...(request.installmentOffer.interestFreeUpTo >= 2
                    ? { default_installments: request.installmentOffer.interestFreeUpTo }
                    : {}),
                },
              }
            : {}),
        },
        // Our id for the attempt: a retry (a timeout, a crash, a retried request) gets the same preference.
        request.payinId,
      )
      .catch((error: unknown) => {
        throw mercadoPagoFailure('checkout', error);
      });
    await this.records.saveCheckout({
      payinId: request.payinId,
      merchantId: request.merchantId,
      preferenceId: preference.id,
      initPoint: preference.init_point,
      returnUrl: request.returnUrl ?? null,
      expiresAt: request.expiresAt,
    });
    return { reference: preference.id, url: preference.init_point, endsByLookup: true };
  }

  async checkoutUrl(reference: string): Promise<string> {
    const record = await this.records.checkoutByPreference(reference);
    if (!record) throw new Error(`no Mercado Pago checkout ${reference}`);
    return record.initPoint;
  }

  /** A merchant's confirmation of a manual refund returns the money through Mercado Pago (contract §16). */
  returnManualRefund(request: RefundRequest): Promise<RefundOutcome> {
    return this.refund(request);
  }

  /** Its word comes by notification: an open attempt is asked about (its payments searched) before another replaces it. */
  whetherPaid(requestId: string, merchantId: string): Promise<GatewayRequestStatus> {
    return this.lookup(requestId, merchantId);
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const client = await this.clientOf(request.merchantId);
    const payment = decisive(await client.searchPayments(request.chargeId));
    if (!payment || outcomeOfPayment(payment) !== 'APPROVED')
      return { status: 'REJECTED', reference: request.refundId, error: 'Mercado Pago has no approved payment to refund' };
    const amount = Money.ofMinor(request.amount, request.currency).toWire();
    await this.records.saveRefund({ refundId: request.refundId, merchantId: request.merchantId, paymentId: payment.id, amount });
    try {
      // Always the amount (contract §28): without it Mercado Pago refunds what it still holds, which may include refunds
      // made in its panel that our books have not heard of yet. What its answer says it refunded is what is booked.
      const refund = await client.refund(payment.id, amount, request.refundId);
      await this.records.refundAnswered(request.refundId, refund.id);
      const refunded = processorMinor(MERCADO_PAGO, refund.amount, request.currency, `refund ${String(refund.id)} amount`);
      return refund.status === 'approved'
        ? { status: 'APPROVED', reference: String(refund.id), amount: refunded }
        : { status: 'REJECTED', reference: String(refund.id), error: `Mercado Pago answered the refund ${refund.status}` };
    } catch (error) {
      const failure = mercadoPagoFailure('refund', error);
      if (isRefusal(failure)) return { status: 'REJECTED', reference: request.refundId, error: failure.refused };
      throw failure;
    }
  }

  async lookup(requestId: string, merchantId: string): Promise<GatewayRequestStatus> {
    const refund = await this.records.refund(requestId);
    if (refund) return this.lookupRefund(refund.refundId, merchantId);
    const checkout = await this.records.checkoutOfPayin(requestId);
    const client = await this.clientOf(merchantId);
    const payment = decisive(await client.searchPayments(requestId));
    if (payment) {
      const { outcome, reference, error, maskedPan, processorFeeAmount } = eventOfPayment(payment);
      return { status: outcome, reference, error, maskedPan, processorFeeAmount };
    }
    // No payment: the payer has not paid (yet). Past the preference's expiry, never.
    if (checkout && checkout.expiresAt.getTime() <= Date.now()) return { status: 'EXPIRED', reference: checkout.preferenceId };
    // A refund we hold no record of was never sent (the record is written before the request).
    if (!checkout) return { status: 'NOT_RECEIVED', reference: null };
    return { status: 'PENDING', reference: null };
  }

  /**
   * What a payment of ours at Mercado Pago tells (contract §23): the
   * attempt's outcome, every refund Mercado Pago lists on it, and the
   * chargeback it is under (read with `GET /v1/chargebacks/:id`, which
   * Mercado Pago documents to take the payment's id as well) or the claim it
   * is in or left.
   */
  async newsOf(client: MercadoPagoClient, payinId: string, payment: MercadoPagoPayment): Promise<GatewayNotice> {
    const refunds = refundsOfPayment(payment);
    const dispute = payment.status === 'charged_back' ? await this.chargebackOf(client, payinId, payment) : claimOf(payment, payinId);
    return {
      kind: 'CHARGE',
      payinId,
      event: eventOfPayment(payment),
      ...(refunds.length > 0 ? { refunds } : {}),
      ...(dispute ? { dispute } : {}),
    };
  }

  async readPayment(merchantId: string, payinId: string): Promise<GatewayNotice> {
    const client = await this.clientOf(merchantId);
    const payment = decisive(await client.searchPayments(payinId));
    return payment ? this.newsOf(client, payinId, payment) : { kind: 'UNKNOWN' };
  }

  private async chargebackOf(client: MercadoPagoClient, payinId: string, payment: MercadoPagoPayment): Promise<DisputeReport | undefined> {
    try {
      const chargeback = await client.getChargeback(String(payment.id));
      const notice = disputeNotice(chargeback.id, chargeback, payinId);
      return notice.kind === 'DISPUTE' ? notice.dispute : undefined;
    } catch (error) {
      // No case yet: the chargeback's own notification opens it.
      if (error instanceof MercadoPagoRequestError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** The merchant's client, with its own access token. */
  async clientOf(merchantId: string): Promise<MercadoPagoClient> {
    const credentials = await mercadoPagoCredentials(this.accounts, merchantId);
    if (!credentials) throw new DomainError('GATEWAY_ACCOUNT_NOT_FOUND', undefined, { provider: this.displayName });
    return this.clientWith(credentials.accessToken);
  }

  private clientWith(accessToken: string): MercadoPagoClient {
    return new MercadoPagoClient(this.api.url, this.api.timeoutMs, accessToken);
  }

  /** Its API's address, each request's bound and its browser script, from the settings (MERCADOPAGO_API_URL, …). */
  private get api(): ProcessorApi {
    return this.settings.gateway.processorApis[MERCADO_PAGO] ?? MERCADO_PAGO_API;
  }

  private async lookupRefund(refundId: string, merchantId: string): Promise<GatewayRequestStatus> {
    const record = (await this.records.refund(refundId))!;
    const client = await this.clientOf(merchantId);
    const refunds = await client.listRefunds(record.paymentId);
    // Compared by amount below: one Mercado Pago wrote beyond what a double holds exactly settles nothing (contract §28).
    const unreadable = refunds.find((r) => typeof r.amount !== 'number');
    if (unreadable)
      throw new ProcessorAmountError(
        MERCADO_PAGO,
        `refund ${String(unreadable.id)} amount ${String(unreadable.amount)} cannot be read exactly`,
      );
    const known = await this.records.knownRefundIds(record.paymentId);
    // Ours: the one Mercado Pago answered with, or (the answer was lost) one of the same amount no other refund of ours claims.
    const ours =
      record.mpRefundId !== null
        ? refunds.find((r) => r.id === record.mpRefundId)
        : refunds.find((r) => !known.has(r.id) && r.amount === record.amount);
    if (!ours) return { status: 'NOT_RECEIVED', reference: null };
    if (record.mpRefundId === null) await this.records.refundAnswered(refundId, ours.id);
    if (ours.status === 'approved') return { status: 'APPROVED', reference: String(ours.id) };
    if (ours.status === 'in_process' || ours.status === 'pending') return { status: 'PENDING', reference: String(ours.id) };
    return { status: 'REJECTED', reference: String(ours.id), error: `Mercado Pago answered the refund ${ours.status}` };
  }
}
