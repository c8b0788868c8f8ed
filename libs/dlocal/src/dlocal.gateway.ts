/*
 * Why one file: dLocal's adapter and the pure readings of dLocal's answers it uses (statuses, payments,
 * refunds): they change together when dLocal's documentation does.
 */
/**
 * dLocal behind the gateway port (contract §20): payments in the REDIRECT
 * flow, the return, notifications, reconciliation through orders, refunds.
 * Long because it is one adapter of one outside API, each request signed as
 * dLocal documents; it is read against that documentation as a whole.
 */
import { Injectable, Logger } from '@nestjs/common';
import { ProcessorApi, RuntimeSettings } from '@pcs/config';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import {
  CheckoutOutcomeUnknownError,
  CheckoutRequest,
  CheckoutSession,
  CollectionMethod,
  GatewayEvent,
  GatewayNotice,
  GatewayRequestStatus,
  InstallmentQuoteRequest,
  PayerFieldProblem,
  PayerIdentity,
  PayerText,
  PaymentGateway,
  ProcessorInstallmentPlan,
  ProcessorAmountError,
  processorMinor,
  ProcessorRefund,
  RefundOutcome,
  RefundRequest,
  QuotesInstallments,
  ChoosesInstallmentsOnItsPage,
  VerifiesPayers,
  ReadsPayments,
  ReturnsManualRefunds,
  AnswersAfterItsPage,
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
  AuthorizesRecurringPix,
  PixAuthorisation,
  PixMandate,
  PixNotAuthorisedError,
} from '@pcs/gateways';
import { Currency, DomainError, FundsFlow, isCurrency, Money, Transaction } from '@pcs/kernel';
import { DLOCAL, DLOCAL_API, dlocalCredentials, dlocalSmartFieldsKey } from './dlocal-account';
import { DLOCAL_CARD_FIELDS } from './dlocal-card-fields';
import { dlocalCardIdOf, savedCardOf } from './dlocal-cards';
import { DLOCAL_DECLINES } from './dlocal-declines';
import { DLocalClient, DLocalEnrollment, DLocalOrder, DLocalPayment, DLocalRefund, DLocalRequestError } from './dlocal.client';
import { DLOCAL_COUNTRY, dlocalMethodOf } from './dlocal-methods';
import { dlocalFailure, isAnswer } from './dlocal-failures';
import { DLocalRecords, DLocalRefundRecord } from './persistence/dlocal-records.repository';
import { checkPayerDocument, DOCUMENTS_SERVED } from './payer-document';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A Pix Automático enrollment's id at dLocal (`E-…`): the instrument of an authorisation holds it. */
const ENROLLMENT_ID = /^E-[0-9A-Za-z-]{1,120}$/;

/** An enrollment as an authorisation (its statuses: PENDING, ACTIVE, REJECTED, CANCELLED). */
function authorisationOf(enrollment: DLocalEnrollment): PixAuthorisation {
  const status = (['PENDING', 'ACTIVE', 'REJECTED', 'CANCELLED'] as const).find((s) => s === enrollment.status) ?? 'PENDING';
  return { reference: enrollment.id, status, authoriseUrl: status === 'PENDING' ? (enrollment.redirect_url ?? null) : null };
}

/** dLocal's payment statuses as the attempt's outcome (contract §20). */
export function outcomeOfStatus(status: string): GatewayEvent['outcome'] {
  switch (status) {
    case 'PAID':
      return 'APPROVED';
    case 'REJECTED':
    case 'CANCELLED':
    case 'EXPIRED':
      return 'REJECTED';
    default: // PENDING, AUTHORIZED, VERIFIED (and any status dLocal adds: nothing is decided on it)
      return 'PENDING';
  }
}

/** A recurring PIX payment whose attempt failed with retries left: PENDING, its detail saying the attempt failed. */
function attemptFailed(payment: Pick<DLocalPayment, 'status' | 'status_detail'>): boolean {
  return payment.status === 'PENDING' && /attempt failed/i.test(payment.status_detail ?? '');
}

/** What a payment's answer is as a charge's outcome (a PIX attempt that failed: rejected). */
function outcomeOfPayment(payment: Pick<DLocalPayment, 'status' | 'status_detail'>): GatewayEvent['outcome'] {
  return attemptFailed(payment) ? 'REJECTED' : outcomeOfStatus(payment.status);
}

/** A payment (or its order) as a charge's answer: its outcome, dLocal's id, and why when it was not paid. */
function answerOf(
  payment: Pick<DLocalPayment, 'status' | 'status_code' | 'status_detail'>,
  reference: string,
): { status: GatewayEvent['outcome']; reference: string; error?: string } {
  const outcome = outcomeOfPayment(payment);
  return { status: outcome, reference, ...(outcome === 'REJECTED' ? { error: reasonOf(payment) } : {}) };
}

/** dLocal's payment method of Pix Automático (enrollments and their recurring payments). */
const PIX_AUTOMATICO = 'XA';

/** Why dLocal ended a payment, as our records keep it: its status_detail and status_code (a number or a string). */
function reasonOf(payment: Pick<DLocalPayment, 'status' | 'status_code' | 'status_detail'>): string {
  const code = payment.status_code === undefined ? '' : ` (${String(payment.status_code)})`;
  return `dLocal: ${payment.status_detail ?? payment.status}${code}`;
}

/**
 * A payment as the attempt's outcome: the event id is the payment and its
 * status, so the same news twice is applied once and a later status is news.
 * dLocal's payment carries no fee (its fees come in its settlement reports):
 * no processorFeeAmount.
 */
export function eventOfPayment(payment: DLocalPayment): GatewayEvent {
  // A Pix Automático retry whose attempt failed stays PENDING at dLocal ("The payment is pending, attempt failed"): for
  // us that attempt ended unpaid (the next retry is a new payment), as its own news.
  if (attemptFailed(payment))
    return {
      gateway: DLOCAL,
      eventId: `payment:${payment.id}:ATTEMPT_FAILED`,
      reference: payment.id,
      outcome: 'REJECTED',
      error: reasonOf(payment),
    };
  const outcome = outcomeOfStatus(payment.status);
  const last4 = payment.card?.last4;
  const installments = Number(payment.card?.installments);
  return {
    gateway: DLOCAL,
    eventId: `payment:${payment.id}:${payment.status}`,
    reference: payment.id,
    outcome,
    error: outcome === 'REJECTED' ? reasonOf(payment) : undefined,
    maskedPan: last4 && /^\d{4}$/.test(last4) ? `************${last4}` : undefined,
    cardType: payment.card?.brand,
    // The installments the payer chose on dLocal's page (contract §25). dLocal tells the count, not the payer's
    // surcharge (between dLocal and the payer; the merchant receives the full amount): those stay unknown.
    ...(Number.isInteger(installments) && installments >= 2 && installments <= 24
      ? { plan: { installments, installmentAmount: null, payerTotalAmount: null } }
      : {}),
  };
}

/** The refunds dLocal lists on a payment (contract §23), in minor units of the payment's currency. */
export function refundsOfPayment(payment: DLocalPayment): ProcessorRefund[] {
  const currency = payment.currency;
  if (!isCurrency(currency)) return [];
  return (payment.refunds ?? []).flatMap((refund) => {
    if (!refund.id) return [];
    // An amount that cannot be read exactly fails the read (contract §28): nothing is booked from it.
    const amount = processorMinor(DLOCAL, refund.amount, currency, `refund ${refund.id} amount`);
    return amount <= 0 ? [] : [{ reference: refund.id, amount, currency, status: outcomeOfRefund(refund.status) }];
  });
}

/** A dLocal refund's status in our terms: SUCCESS approved, PENDING waiting, REJECTED or CANCELLED failed (the amount released). */
export function outcomeOfRefund(status: string): 'APPROVED' | 'REJECTED' | 'PENDING' {
  if (status === 'SUCCESS') return 'APPROVED';
  if (status === 'REJECTED' || status === 'CANCELLED') return 'REJECTED';
  return 'PENDING';
}

/** The refund of ours a dLocal refund is: named in its notification_url (`refund=<our id>`), which dLocal keeps with it. */
export function ourRefundIdOf(refund: Pick<DLocalRefund, 'notification_url'>): string | null {
  if (!refund.notification_url) return null;
  try {
    const id = new URL(refund.notification_url).searchParams.get('refund');
    return id && /^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * dLocal behind the gateway port (contract §20), each merchant with its own
 * account: a collection attempt is a dLocal payment in the REDIRECT flow whose
 * `order_id` is the attempt's id; the outcome arrives by a verified
 * notification (DLocalNotifications) or by reconciliation (`lookup`, reading
 * the order). dLocal has no idempotency key: a payment whose answer was lost
 * is recorded and looked up (a second POST with its order id is refused,
 * 5009), and a refund is written down before it is sent, so a retry reads the
 * payment's refunds instead of sending a second one. Amounts cross as
 * decimals in the currency's precision, here and nowhere else.
 */
@Injectable()
export class DLocalGateway
  extends PaymentGateway
  implements
    QuotesInstallments,
    ChoosesInstallmentsOnItsPage,
    VerifiesPayers,
    ReadsPayments,
    ReturnsManualRefunds,
    AnswersAfterItsPage,
    ChargesOffSession,
    SavesCards,
    AuthorizesRecurringPix
{
  private readonly logger = new Logger('dLocal');
  readonly name = DLOCAL;
  readonly displayName = 'dLocal';
  /** dLocal's hosted page shows the payer the installments itself (contract §25). */
  readonly installmentsChosenAt = 'ITS_PAGE';

  /** Whose account the merchant connected (contract §23): its own (MERCHANT, the default) or the business's (PLATFORM). */
  override fundsFlowOf(merchantId: string, tx?: Transaction): Promise<FundsFlow> {
    return this.accounts.fundsFlowOf(merchantId, DLOCAL, tx);
  }

  constructor(
    private readonly accounts: GatewayAccounts,
    private readonly records: DLocalRecords,
    private readonly settings: RuntimeSettings,
  ) {
    super();
  }

  /**
   * Its Smart Fields on our setup page (contract §31): dLocal.js with the account's Smart Fields key, for a country it
   * serves. None without the key.
   */
  async cardFields(merchantId: string, country: string, tx?: Transaction): Promise<CardFields | null> {
    const key = await dlocalSmartFieldsKey(this.accounts, merchantId, tx);
    const code = DLOCAL_COUNTRY[country];
    if (!key || !code) return null;
    const script = this.api.browserScript ?? DLOCAL_API.browserScript;
    return {
      processor: DLOCAL,
      displayName: this.displayName,
      mount: DLOCAL_CARD_FIELDS,
      script,
      publicKey: key,
      origins: [...new Set([new URL(script).origin, new URL(this.api.url).origin])],
      data: { country: code },
    };
  }

  /**
   * The card a Smart Fields token stands for, saved at dLocal (`POST /secure_cards`) for the payer, whom dLocal names
   * by name and document (required; the e-mail when known). A payer without them cannot keep a card there.
   */
  async saveCard(merchantId: string, holder: CardHolder, token: string): Promise<SavedCard> {
    const code = DLOCAL_COUNTRY[holder.country];
    const document = checkPayerDocument(holder.country, holder.document, holder.documentType ?? undefined);
    if (!code || !holder.name || !document.ok)
      throw new CardNotSavedError('dLocal keeps cards for payers with a name and a document of the country');
    const client = await this.clientOf(merchantId);
    try {
      return savedCardOf(
        await client.createSecureCard({
          country: code,
          card: { token },
          payer: { name: holder.name.slice(0, 100), document: document.document, ...(holder.email ? { email: holder.email } : {}) },
        }),
      );
    } catch (error) {
      throw error instanceof CardNotSavedError ? error : dlocalFailure('save-card', error);
    }
  }

  /**
   * A Pix Automático enrollment (contract §31; dLocal's "Create enrollment"): a merchant's subscription of fixed amount and
   * periodicity from its first billing date, for the payer named by name and document, REDIRECT: dLocal's journey takes
   * the payer to the bank's app and back to `returnUrl`; our setup's id is its external id. Refused (5001 and the like,
   * or a payer without a CPF or CNPJ): PixNotAuthorisedError.
   */
  async authorizePix(
    merchantId: string,
    holder: CardHolder,
    mandate: PixMandate,
    setupId: string,
    returnUrl: string,
  ): Promise<PixAuthorisation> {
    const document = checkPayerDocument('BRA', holder.document, holder.documentType ?? undefined);
    if (holder.country !== 'BRA' || !holder.name || !document.ok)
      throw new PixNotAuthorisedError('dLocal enrolls payers in Brazil with a name and a CPF or CNPJ');
    const client = await this.clientOf(merchantId);
    try {
      return authorisationOf(
        await client.createEnrollment({
          external_id: setupId,
          currency: 'BRL',
          country: 'BR',
          type: 'MERCHANT_SUBSCRIPTION',
          ...(mandate.description ? { description: mandate.description.slice(0, 200) } : {}),
          payment_method_id: PIX_AUTOMATICO,
          payment_method_flow: 'REDIRECT',
          payer: { name: holder.name.slice(0, 100), document: document.document, ...(holder.email ? { email: holder.email } : {}) },
          subscription: {
            start_date: mandate.startDate,
            frequency: mandate.frequency,
            amount: { type: 'FIXED', value: Money.ofMinor(mandate.amount, Currency.BRL).toWire() },
          },
          notification_url: `${this.settings.publicBaseUrl}/gateways/dlocal/notifications/${merchantId}`,
          callback_url: returnUrl,
        }),
      );
    } catch (error) {
      throw dlocalFailure('enrollment', error);
    }
  }

  async pixAuthorisation(merchantId: string, reference: string): Promise<PixAuthorisation> {
    return authorisationOf(await (await this.clientOf(merchantId)).getEnrollment(reference));
  }

  /** dLocal charges a saved card's `card_id` without its code on every account (its card-on-file payments). */
  offSessionAvailable(): Promise<boolean> {
    return Promise.resolve(true);
  }

  /**
   * A saved card charged without the payer (contract §31): `POST /payments` in the DIRECT flow with its `card_id`, our
   * attempt's id as `order_id` (dLocal has no idempotency key: a retry whose order id it holds, 5009, reads that
   * order), the payer as dLocal names every payer. Refused before any payment: a rejected attempt.
   */
  async chargeOffSession(request: ChargeRequest): Promise<ChargeOutcome> {
    if (request.instrumentToken && ENROLLMENT_ID.test(request.instrumentToken))
      return this.chargePixAutomatico(request, request.instrumentToken);
    const cardId = dlocalCardIdOf(request.instrumentToken);
    const country = request.method?.country;
    if (!cardId || !country || !DLOCAL_COUNTRY[country])
      return { status: 'REJECTED', reference: request.payinId, error: 'dLocal: the instrument is no card it keeps for us' };
    const payer = request.payer;
    const document = checkPayerDocument(country, payer?.document ?? null, payer?.documentType);
    if (!payer?.name || !payer.email || !document.ok)
      return { status: 'REJECTED', reference: request.payinId, error: 'dLocal: the payer has no name, e-mail or document it takes' };
    const client = await this.clientOf(request.merchantId);
    try {
      const payment = await client.chargeCard({
        amount: Money.ofMinor(request.amount, request.currency).toWire(),
        currency: request.currency,
        country: DLOCAL_COUNTRY[country],
        payment_method_id: 'CARD',
        payment_method_flow: 'DIRECT',
        payer: { name: payer.name.slice(0, 100), email: payer.email, document: document.document },
        card: { card_id: cardId },
        order_id: request.payinId,
        description: request.merchantName.slice(0, 200),
        notification_url: `${this.settings.publicBaseUrl}/gateways/dlocal/notifications/${request.merchantId}`,
      });
      const { outcome, reference, gateway: _gateway, eventId: _eventId, ...details } = eventOfPayment(payment);
      return { status: outcome, reference, ...details };
    } catch (error) {
      const failure = dlocalFailure('charge', error);
      if (!isAnswer(failure)) throw failure;
      if ('refused' in failure) return { status: 'REJECTED', reference: request.payinId, error: failure.refused };
      // Our order id is taken: the earlier request of this very attempt reached dLocal; its order says how it ended.
      const order = await client.getOrder(request.payinId);
      const outcome = outcomeOfStatus(order.status);
      return { status: outcome, reference: order.payment_id, ...(outcome === 'REJECTED' ? { error: reasonOf(order) } : {}) };
    }
  }

  /**
   * A Pix Automático charge (contract §31): a recurring payment of the enrollment scheduled for the billing date (dLocal's
   * "Recurring payments": DIRECT, `enrollment.id`, `scheduled_date`, our attempt's id as order id), PENDING until then;
   * a retry is dLocal's retry service on the payment whose attempt failed (a new payment, which keeps that payment's
   * order id: our record of this attempt names it, so its news finds this attempt). Recorded before it is sent, so a
   * lost answer is looked up (5009 reads the order) and a notification finds the attempt.
   */
  private async chargePixAutomatico(request: ChargeRequest, enrollmentId: string): Promise<ChargeOutcome> {
    const schedule = request.schedule;
    const payer = request.payer;
    const document = checkPayerDocument('BRA', payer?.document ?? null, payer?.documentType);
    if (!schedule || request.currency !== Currency.BRL || !payer?.name || !payer.email || !document.ok)
      return {
        status: 'REJECTED',
        reference: request.payinId,
        error: 'dLocal: a Pix Automático charge needs its billing date and the payer’s name, e-mail and CPF or CNPJ',
      };
    const client = await this.clientOf(request.merchantId);
    // This attempt was answered before (the charge is driven again while pending): dLocal's payment says how it stands.
    const known = await this.records.paymentOfPayin(request.payinId);
    if (known?.paymentId) {
      const payment = await client.getPayment(known.paymentId);
      return answerOf(payment, payment.id);
    }
    const notificationUrl = `${this.settings.publicBaseUrl}/gateways/dlocal/notifications/${request.merchantId}`;
    const retried = schedule.retryOf ? await this.records.paymentByDLocalId(schedule.retryOf) : null;
    if (schedule.retryOf && !retried)
      return { status: 'REJECTED', reference: request.payinId, error: 'dLocal: the payment to retry is not one of ours' };
    await this.records.savePayment({
      payinId: request.payinId,
      merchantId: request.merchantId,
      returnUrl: null,
      // Pending until its billing date, then dLocal's retries: 7 days more.
      expiresAt: new Date(Date.parse(`${schedule.date}T03:00:00Z`) + 8 * 86_400_000),
      scheduledDate: schedule.date,
      retryOfOrder: retried ? (retried.retryOfOrder ?? retried.payinId) : null,
    });
    try {
      const payment = retried
        ? await client.retryPayment(schedule.retryOf!, { notification_url: notificationUrl })
        : await client.chargePixAutomatico({
            amount: Money.ofMinor(request.amount, request.currency).toWire(),
            currency: 'BRL',
            country: 'BR',
            payment_method_id: PIX_AUTOMATICO,
            payment_method_flow: 'DIRECT',
            payer: { name: payer.name.slice(0, 100), email: payer.email, document: document.document },
            enrollment: { id: enrollmentId },
            scheduled_date: schedule.date,
            order_id: request.payinId,
            description: request.merchantName.slice(0, 200),
            notification_url: notificationUrl,
          });
      await this.records.paymentAnswered(request.payinId, payment.id, null);
      return answerOf(payment, payment.id);
    } catch (error) {
      const failure = dlocalFailure('charge', error);
      if (!isAnswer(failure)) throw failure;
      if ('refused' in failure) return { status: 'REJECTED', reference: request.payinId, error: failure.refused };
      // Our order id is taken: the earlier request of this very attempt reached dLocal; its order says how it stands.
      const order = await client.getOrder(request.payinId);
      await this.records.paymentAnswered(request.payinId, order.payment_id, null);
      return answerOf(order, order.payment_id);
    }
  }

  /** Its refusals are `dLocal: <status_detail> (<status_code>)`; their kind is its decline table's (by the code). */
  declineKindOf(error: string): DeclineKind | undefined {
    // A Pix Automático attempt that failed with retries left (dLocal's retry service tries again): soft.
    if (/^dLocal: .*attempt failed.* \(\d+\)$/.test(error)) return 'SOFT';
    const code = /^dLocal: .* \((\d+)\)$/.exec(error)?.[1];
    return code && Object.hasOwn(DLOCAL_DECLINES, code) ? declineKindIn(DLOCAL_DECLINES, code) : undefined;
  }

  override serves(method: CollectionMethod): boolean {
    return dlocalMethodOf(method) !== null;
  }

  /** dLocal verifies every payer: name, e-mail and an identity document of the country. */
  needsPayerIdentity(): boolean {
    return true;
  }

  /** The name, the e-mail and a document dLocal takes in the country, each said beside its field. */
  payerIdentityProblems(method: CollectionMethod, payer: PayerIdentity): PayerFieldProblem[] {
    const problems: PayerFieldProblem[] = [];
    const name = payer.name?.trim() ?? '';
    if (name.length < 2 || name.length > 100)
      problems.push({
        field: 'name',
        message: { es: 'Escriba su nombre completo.', en: 'Enter your full name.', pt: 'Informe seu nome completo.' },
      });
    if (!payer.email || !/^[^\s@]{1,64}@[^\s@]{1,188}\.[^\s@]{2,63}$/.test(payer.email.trim()))
      problems.push({
        field: 'email',
        message: { es: 'Escriba un correo electrónico válido.', en: 'Enter a valid e-mail address.', pt: 'Informe um e-mail válido.' },
      });
    const document = checkPayerDocument(method.country, payer.document, payer.documentType);
    if (!document.ok) {
      const served = DOCUMENTS_SERVED[method.country];
      problems.push({
        field: 'document',
        message: served
          ? {
              es: `Escriba un documento válido: ${served.es}.`,
              en: `Enter a valid document: ${served.en}.`,
              pt: `Informe um documento válido: ${served.pt}.`,
            }
          : { es: document.reasonEs, en: document.reason, pt: document.reasonPt },
      });
    }
    return problems;
  }

  payerDocumentLabel(method: CollectionMethod): PayerText {
    return (
      DOCUMENTS_SERVED[method.country]?.label ?? { es: 'Documento de identidad', en: 'Identity document', pt: 'Documento de identidade' }
    );
  }

  /**
   * dLocal's installments plan for the card (`POST /installments-plans`, which needs its BIN): each
   * plan's total with the surcharge the payer pays, and its id for the payment (installments_id).
   */
  async quoteInstallments(request: InstallmentQuoteRequest): Promise<readonly ProcessorInstallmentPlan[]> {
    const country = DLOCAL_COUNTRY[request.method.country];
    if (!request.bin || !country)
      throw new DomainError('INSTALLMENTS_NOT_QUOTED', undefined, {
        provider: this.displayName,
        reason: request.bin ? `it does not collect in ${request.method.country}` : 'it needs the card’s first digits (bin)',
      });
    const client = await this.clientOf(request.merchantId);
    const plan = await client
      .createInstallmentsPlan({
        country,
        bin: request.bin,
        amount: Money.ofMinor(request.amount, request.currency).toWire(),
        currency: request.currency,
      })
      .catch((error: unknown) => {
        throw dlocalFailure('quote', error);
      });
    // Its decimals read exactly (contract §28): a plan whose amounts cannot be read fails the quote.
    const minor = (value: number, what: string) => processorMinor(DLOCAL, value, request.currency, what);
    return plan.installments.map((option) => ({
      installments: option.installments,
      installmentAmount: minor(option.installment_amount, `installments plan ${plan.id} installment_amount`),
      totalAmount: minor(option.total_amount, `installments plan ${plan.id} total_amount`),
      merchantFinancingFee: null,
      planId: option.id,
    }));
  }

  async openCheckout(request: CheckoutRequest): Promise<CheckoutSession> {
    const code = request.method && dlocalMethodOf(request.method);
    if (!request.method || !code)
      throw new DomainError('COUNTRY_PROCESSOR_NOT_AVAILABLE', `dLocal does not collect ${request.paymentMethod} here`);
    const country = request.method.country;
    const payer = request.payer;
    const document = checkPayerDocument(country, payer?.document ?? null, payer?.documentType);
    const missing = !payer?.name ? 'the payer has no name' : !payer.email ? 'the payer has no e-mail' : null;
    if (missing || !document.ok)
      throw new DomainError('PAYER_DOCUMENT_REQUIRED', undefined, {
        provider: this.displayName,
        reason: missing ?? (document as { reason: string }).reason,
        reasonEs: missing
          ? missing === 'the payer has no name'
            ? 'el pagador no tiene nombre'
            : 'el pagador no tiene e-mail'
          : (document as { reasonEs: string }).reasonEs,
      });
    const client = await this.clientOf(request.merchantId);
    const base = this.settings.publicBaseUrl;
    await this.records.savePayment({
      payinId: request.payinId,
      merchantId: request.merchantId,
      returnUrl: request.returnUrl ?? null,
      expiresAt: request.expiresAt,
    });
    let payment: DLocalPayment;
    try {
      payment = await client.createPayment({
        amount: Money.ofMinor(request.amount, request.currency).toWire(),
        currency: request.currency,
        country: DLOCAL_COUNTRY[country],
        payment_method_id: code,
        payment_method_flow: 'REDIRECT',
        payer: { name: payer!.name!.slice(0, 100), email: payer!.email!, document: document.document },
        order_id: request.payinId,
        description: request.title.slice(0, 200),
        notification_url: `${base}/gateways/dlocal/notifications/${request.merchantId}`,
        callback_url: `${base}/gateways/dlocal/return/${request.payinId}`,
      });
    } catch (error) {
      const failure = dlocalFailure('checkout', error);
      if (!isAnswer(failure)) {
        if (failure instanceof DomainError) this.logger.warn(`payment ${request.payinId} refused: ${failure.message}`);
        throw failure;
      }
      // Its payment has no redirect_url to give: the payer never reaches it; asked about by our order id.
      const order = await client.getOrder(request.payinId).catch(() => null);
      if (order) await this.records.paymentAnswered(request.payinId, order.payment_id, null);
      throw new CheckoutOutcomeUnknownError(DLOCAL, order?.payment_id ?? null, failure.orderTaken);
    }
    if (!payment.redirect_url) throw new CheckoutOutcomeUnknownError(DLOCAL, payment.id, 'the payment came back without a redirect_url');
    await this.records.paymentAnswered(request.payinId, payment.id, payment.redirect_url);
    return { reference: payment.id, url: payment.redirect_url, endsByLookup: true };
  }

  async checkoutUrl(reference: string): Promise<string> {
    const record = await this.records.paymentByDLocalId(reference);
    if (!record?.redirectUrl) throw new Error(`no dLocal checkout ${reference}`);
    return record.redirectUrl;
  }

  /** A merchant's confirmation of a manual refund returns the money through dLocal, as through Mercado Pago. */
  returnManualRefund(request: RefundRequest): Promise<RefundOutcome> {
    return this.refund(request);
  }

  /** Its word comes by notification: an open attempt is asked about (its order) before another replaces it. */
  whetherPaid(requestId: string, merchantId: string): Promise<GatewayRequestStatus> {
    return this.lookup(requestId, merchantId);
  }

  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const client = await this.clientOf(request.merchantId);
    const paymentId = request.chargeReference ?? (await this.records.paymentOfPayin(request.chargeId))?.paymentId;
    if (!paymentId) return { status: 'REJECTED', reference: request.refundId, error: 'dLocal has no payment to refund' };
    const earlier = await this.records.refund(request.refundId);
    if (earlier?.sentAt) {
      // Sent before and its answer lost (or this is a retry): dLocal has no idempotency key, so ask it, never send twice.
      const found = await this.findRefund(client, earlier);
      if (found) return this.refundOutcome(found, request.currency);
    } else if (!earlier) {
      await this.records.saveRefund({
        refundId: request.refundId,
        merchantId: request.merchantId,
        paymentId,
        amount: request.amount,
        currency: request.currency,
      });
    }
    // One send at a time: another still in flight (a concurrent retry) leaves this one to reconciliation.
    if (!(await this.records.claimSend(request.refundId, 2 * this.api.timeoutMs)))
      throw new Error(`refund ${request.refundId} is being sent to dLocal already`);
    try {
      const refund = await client.createRefund({
        payment_id: paymentId,
        // Always sent: without it dLocal refunds the whole payment.
        amount: Money.ofMinor(request.amount, request.currency).toWire(),
        currency: request.currency,
        notification_url: `${this.settings.publicBaseUrl}/gateways/dlocal/notifications/${request.merchantId}?refund=${request.refundId}`,
      });
      await this.records.refundAnswered(request.refundId, refund.id);
      return this.refundOutcome(refund, request.currency);
    } catch (error) {
      const failure = dlocalFailure('refund', error);
      if (isAnswer(failure)) return { status: 'REJECTED', reference: request.refundId, error: failure.refused };
      throw failure;
    }
  }

  /**
   * A dLocal payment as news of the attempt it names (its `order_id`), if
   * that is one of this merchant's: its outcome and the refunds dLocal lists
   * on it (ours, and any made in dLocal's dashboard; contract §23).
   */
  async newsOfPayment(client: DLocalClient, merchantId: string, paymentId: string): Promise<GatewayNotice> {
    const payment = await client.getPayment(paymentId);
    const payinId = payment.order_id ?? '';
    let record =
      (await this.records.paymentByDLocalId(payment.id)) ??
      (UUID.test(payinId) ? await this.records.paymentOfPayin(payinId.toLowerCase()) : null);
    // A Pix Automático retry keeps the order id of the payment it retries: a new payment of that order is our retry whose
    // answer was lost (the latest one waiting for it).
    if (record && record.paymentId && record.paymentId !== payment.id && payment.payment_method_id === PIX_AUTOMATICO)
      record = await this.records.unansweredRetryOf(record.retryOfOrder ?? record.payinId);
    // Another merchant's payment, or none of ours at all: nothing changes.
    if (!record || record.merchantId !== merchantId) return { kind: 'UNKNOWN' };
    if (!record.paymentId) await this.records.paymentAnswered(record.payinId, payment.id, payment.redirect_url ?? null);
    else if (record.paymentId !== payment.id) return { kind: 'UNKNOWN' };
    const refunds = refundsOfPayment(payment);
    return { kind: 'CHARGE', payinId: record.payinId, event: eventOfPayment(payment), ...(refunds.length > 0 ? { refunds } : {}) };
  }

  async readPayment(merchantId: string, payinId: string): Promise<GatewayNotice> {
    const record = UUID.test(payinId) ? await this.records.paymentOfPayin(payinId.toLowerCase()) : null;
    if (!record?.paymentId || record.merchantId !== merchantId) return { kind: 'UNKNOWN' };
    return this.newsOfPayment(await this.clientOf(merchantId), merchantId, record.paymentId);
  }

  async lookup(requestId: string, merchantId: string): Promise<GatewayRequestStatus> {
    const refund = await this.records.refund(requestId);
    const client = await this.clientOf(merchantId);
    if (refund) {
      const found = refund.sentAt ? await this.findRefund(client, refund) : null;
      // Never sent, or not among the payment's refunds: dLocal never took it.
      if (!found) return { status: 'NOT_RECEIVED', reference: null };
      const outcome = outcomeOfRefund(found.status);
      return {
        status: outcome,
        reference: found.id,
        ...(outcome === 'REJECTED' ? { error: `dLocal answered the refund ${found.status}` } : {}),
      };
    }
    const record = await this.records.paymentOfPayin(requestId);
    // A Pix Automático retry keeps the order id of the payment it retries: read by its own id, when its answer came
    // (none came: not received; a late notification of it still finds this attempt, unansweredRetryOf).
    if (record?.retryOfOrder) {
      if (!record.paymentId) return { status: 'NOT_RECEIVED', reference: null };
      const payment = await client.getPayment(record.paymentId);
      return answerOf(payment, payment.id);
    }
    let order: DLocalOrder;
    try {
      order = await client.getOrder(requestId);
    } catch (error) {
      // No payment with our order id: the request never reached dLocal (or was refused); nothing can be paid on it.
      if (error instanceof DLocalRequestError && error.status === 404) return { status: 'NOT_RECEIVED', reference: null };
      throw error;
    }
    await this.records.paymentAnswered(requestId, order.payment_id, null);
    const outcome = outcomeOfPayment(order);
    // A payment whose opening answer was lost: the payer never had its page, so nobody can pay it. It ends here (the payer
    // starts a new attempt); should dLocal report it paid after all, that meets a final attempt and is logged for a refund.
    // A scheduled payment (Pix Automático) has no page: it stays pending until its billing date.
    if (outcome === 'PENDING' && record && !record.redirectUrl && !record.scheduledDate)
      return {
        status: 'REJECTED',
        reference: order.payment_id,
        error: 'dLocal: the answer opening the payment was lost; the payer never reached its page',
      };
    if (outcome !== 'APPROVED')
      return { status: outcome, reference: order.payment_id, ...(outcome === 'REJECTED' ? { error: reasonOf(order) } : {}) };
    // Paid: the payment itself tells the card.
    const { maskedPan, cardType, plan } = eventOfPayment(await client.getPayment(order.payment_id));
    return { status: 'APPROVED', reference: order.payment_id, maskedPan, cardType, ...(plan ? { plan } : {}) };
  }

  /** Its API's address and each request's bound, from the settings (DLOCAL_API_URL). */
  private get api(): ProcessorApi {
    return this.settings.gateway.processorApis[DLOCAL] ?? DLOCAL_API;
  }

  /** The merchant's client, with its own credentials. */
  async clientOf(merchantId: string): Promise<DLocalClient> {
    const credentials = await dlocalCredentials(this.accounts, merchantId);
    if (!credentials) throw new DomainError('GATEWAY_ACCOUNT_NOT_FOUND', undefined, { provider: this.displayName });
    return new DLocalClient(this.api.url, this.api.timeoutMs, credentials);
  }

  /**
   * A refund of ours among its payment's refunds at dLocal: the one dLocal
   * answered with, or the one whose notification_url names it, or (an older
   * refund without one) one of the same amount no other refund of ours claims.
   */
  private async findRefund(client: DLocalClient, record: DLocalRefundRecord): Promise<DLocalRefund | null> {
    if (record.dlocalRefundId) return client.getRefund(record.dlocalRefundId);
    const payment = await client.getPayment(record.paymentId);
    const refunds = payment.refunds ?? [];
    // Compared by amount below: one dLocal wrote beyond what a double holds exactly decides nothing (contract §28).
    const unreadable = refunds.find((r) => typeof r.amount !== 'number');
    if (unreadable)
      throw new ProcessorAmountError(DLOCAL, `refund ${unreadable.id} amount ${String(unreadable.amount)} cannot be read exactly`);
    const amount = Money.ofMinor(record.amount, record.currency as Currency).toWire();
    const claimed = await this.records.claimedRefundIds(record.paymentId);
    const found =
      refunds.find((r) => ourRefundIdOf(r) === record.refundId) ??
      refunds.find((r) => ourRefundIdOf(r) === null && !claimed.has(r.id) && r.amount === amount);
    if (found) await this.records.refundAnswered(record.refundId, found.id);
    return found ?? null;
  }

  /** A refund's answer; an approved one with the amount dLocal says it refunded, read exactly (contract §28). */
  private refundOutcome(refund: DLocalRefund, currency: Currency): RefundOutcome {
    const status = outcomeOfRefund(refund.status);
    if (status === 'REJECTED') return { status, reference: refund.id, error: `dLocal answered the refund ${refund.status}` };
    if (status === 'PENDING') return { status, reference: refund.id };
    return { status, reference: refund.id, amount: processorMinor(DLOCAL, refund.amount, currency, `refund ${refund.id} amount`) };
  }
}
