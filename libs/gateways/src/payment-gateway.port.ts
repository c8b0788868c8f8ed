/*
 * Why one file: the gateway seam: the port, the capabilities only some processors have, and every type an
 * adapter and its callers exchange.
 */
import { Currency, DisputeReason, FundsFlow, Transaction } from '@pcs/kernel';
import type { DeclineKind } from './declines';

/** A way of paying in a country, as the catalog names it: what a gateway is asked whether it collects. */
export interface CollectionMethod {
  /** ISO 3166 alpha-3 (URY, ARG, BRA). */
  readonly country: string;
  /** The catalog's payment instrument type (CREDIT_CARD, BANK_TRANSFER, CASH, PIX…). */
  readonly instrumentType: string;
  /** The catalog's payment method (VISA, BBVA, PIX…). */
  readonly paymentMethod: string;
}

/** Who pays, as a gateway that verifies payers needs them (contract §20): the name, the e-mail and an identity document. */
export interface PayerIdentity {
  readonly name: string | null;
  readonly email: string | null;
  /** The document's number as given (the gateway checks it for the country). */
  readonly document: string | null;
  /** The payer record's document type (DNI, IDENTITY_DOCUMENT, PASSPORT), when known. */
  readonly documentType?: string | null;
}

/** A text in each language of the payer's pages. */
export type PayerText = Readonly<Record<'es' | 'en' | 'pt', string>>;

/** What is wrong with one of the payer's details, for a page to say beside the field. */
export interface PayerFieldProblem {
  readonly field: 'name' | 'email' | 'document';
  readonly message: PayerText;
}

export interface CheckoutRequest {
  readonly payinId: string;
  /** Whose payment: an adapter that works with each merchant's own account uses its credentials. */
  readonly merchantId: string;
  /** What the payer is paying for, as a gateway's page names it (the intent's description or reference). */
  readonly title: string;
  readonly merchantName: string;
  readonly paymentMethod: string;
  /** The country and instrument type of the method, for gateways whose codes depend on them (always given by the service). */
  readonly method?: CollectionMethod;
  /** The payer's identity, for gateways that need it (needsPayerIdentity). */
  readonly payer?: PayerIdentity;
  readonly currency: Currency;
  readonly amount: number;
  readonly expiresAt: Date;
  /**
   * Where the gateway sends the payer back once the decision is recorded
   * (the link page, the B2B checkout); absent, the gateway's page shows the
   * outcome itself.
   */
  readonly returnUrl?: string;
  /** What the merchant offers in installments for this payment (contract §25), for a gateway whose page lets the payer choose. */
  readonly installmentOffer?: InstallmentOffer;
  /** The installments chosen before the page (preselected there), within the offer. */
  readonly installments?: number;
}

/** The merchant's installment offer for one payment (contract §25): its policy in the payment's country, in minor units. */
export interface InstallmentOffer {
  readonly maxInstallments: number;
  readonly interestFreeUpTo: number;
  /** The least one installment may be, in the payment's currency; null: no least. */
  readonly minInstallmentAmount: number | null;
}

export interface CheckoutSession {
  readonly reference: string;
  readonly url: string;
  /**
   * The gateway's word on the attempt can be lost (it arrives by a
   * notification we may miss): the attempt does not simply expire with its
   * session, it is looked up (reconciliation) until the gateway says how it
   * ended, expiry included.
   */
  readonly endsByLookup?: boolean;
}

export interface ChargeRequest {
  readonly payinId: string;
  /** Whose account charges it (a processor's account of the merchant). */
  readonly merchantId: string;
  readonly instrumentToken: string | null;
  readonly merchantName: string;
  readonly paymentMethod: string;
  readonly currency: Currency;
  readonly amount: number;
  /** The installments the payer chose (contract §25), within the offer; absent: one payment. */
  readonly installments?: number;
  /** The merchant's offer, for a gateway that prices the plan itself (the sandbox), with its method. */
  readonly installmentOffer?: InstallmentOffer;
  readonly method?: CollectionMethod;
  /** The payer's identity, for a gateway that verifies payers (VerifiesPayers: dLocal names the payer in each payment). */
  readonly payer?: PayerIdentity;
  /**
   * A scheduled charge (Pix Automático, contract §31): the billing date it is asked for (YYYY-MM-DD, Brasília), and,
   * for a retry, the processor's payment whose attempt failed (retried by the processor's retry service, never as a
   * new payment: the scheme allows one per period).
   */
  readonly schedule?: { readonly date: string; readonly retryOf: string | null };
  /**
   * The payer present (contract §31): the processor's token of the saved card with its security code, made in the
   * payer's browser (Mercado Pago's one-click). Used where a saved card needs its code; single use, never kept: a
   * charge sent again without it (a crash before its answer) is looked up by our attempt's id.
   */
  readonly cardToken?: string;
}

/** What a gateway tells of a collection besides its outcome. */
/**
 * A card as a processor reports it with an outcome, or the sandbox's page is given it (contract §30): the
 * BIN (6 or 8 digits), the last four and the expiry (MM/YY). Held in memory only: the card-testing guard
 * keeps a keyed hash of the three, never them.
 */
export interface CardParts {
  readonly bin: string;
  readonly last4: string;
  readonly expiry: string;
}

/** The three parts when each reads as a card's (a month 1–12, a year of two or four digits); none otherwise. */
export function cardPartsOf(bin: unknown, last4: unknown, month: unknown, year: unknown): CardParts | undefined {
  const text = (value: unknown) =>
    typeof value === 'number' && Number.isInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  const [b, l, m, y] = [text(bin), text(last4), text(month), text(year)];
  if (!/^(\d{6}|\d{8})$/.test(b) || !/^\d{4}$/.test(l) || !/^\d{1,2}$/.test(m) || !/^(\d{2}|\d{4})$/.test(y)) return undefined;
  if (Number(m) < 1 || Number(m) > 12) return undefined;
  return { bin: b, last4: l, expiry: `${m.padStart(2, '0')}/${y.slice(-2)}` };
}

export interface CardDetails {
  /** The card, for the card-testing guard of the public pages (contract §30), when the processor reports it. */
  readonly card?: CardParts;
  readonly maskedPan?: string;
  readonly cardType?: string;
  /** The gateway's own fee for the collection, minor units, when it reports one (contract §19: processorFeeAmount). */
  readonly processorFeeAmount?: number;
  /** Its financing fee (interest-free installments), minor units, when it reports one: compared apart in reconciliation. */
  readonly processorFinancingFeeAmount?: number;
  /** When the processor releases the money (Mercado Pago's money_release_date), when it tells (contract §23). */
  readonly releasedOn?: Date;
  /** The installment plan the payer paid in (contract §25), when more than one installment. */
  readonly plan?: PaidPlan;
}

/**
 * The plan a payer paid in (contract §25), minor units: the payer's total includes any interest the payer pays.
 * A processor that tells only the number of installments (dLocal's hosted page: the surcharge is between it
 * and the payer, the merchant receives the full amount) leaves the installment and the payer's total null.
 */
export interface PaidPlan {
  readonly installments: number;
  readonly installmentAmount: number | null;
  readonly payerTotalAmount: number | null;
}

export interface ChargeOutcome extends CardDetails {
  readonly status: 'APPROVED' | 'PENDING' | 'REJECTED';
  readonly reference: string;
  readonly error?: string;
  readonly instrumentToken?: string;
}

export interface RefundRequest {
  readonly refundId: string;
  readonly merchantId: string;
  /** Our id of the approved collection being refunded (the gateway knows it as that payment's reference). */
  readonly chargeId: string;
  readonly chargeReference: string | null;
  readonly merchantName: string;
  readonly paymentMethod: string;
  readonly currency: Currency;
  readonly amount: number;
}

export interface RefundOutcome {
  /** PENDING: the gateway took the refund and tells its end later (a notification, or reconciliation asking). */
  readonly status: 'APPROVED' | 'REJECTED' | 'PENDING';
  readonly reference: string;
  readonly error?: string;
  /**
   * What the processor says it refunded, minor units, read exactly from its answer (contract §28:
   * the refund booked is that amount); absent when the answer does not say (the amount asked).
   */
  readonly amount?: number;
}

/** What a gateway tells us about a session, verified. */
export interface GatewayEvent extends CardDetails {
  readonly gateway: string;
  readonly eventId: string;
  readonly reference: string;
  readonly outcome: 'PENDING' | 'APPROVED' | 'REJECTED';
  readonly error?: string;
}

/** What a gateway knows of one of our requests, asked by the id we gave it. */
export interface GatewayRequestStatus extends CardDetails {
  /**
   * NOT_RECEIVED: the gateway never saw the request, and from this answer on
   * refuses it should it still arrive (so the answer stays true). EXPIRED: a
   * checkout the payer never completed.
   */
  readonly status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'EXPIRED' | 'NOT_RECEIVED';
  readonly reference: string | null;
  readonly error?: string;
  readonly instrumentToken?: string;
}

/**
 * A checkout whose answer was lost (a timeout, a 5xx, a duplicate the gateway
 * refuses to answer again): the gateway may hold a payment the payer cannot
 * reach. The attempt is recorded and settled by reconciliation (asked by its
 * id), and the request answers that the gateway is unavailable; the payer may
 * start a new attempt at once.
 */
/**
 * A processor that could not be reached for a request (contract §26): the connection was refused,
 * it answered 429 or 5xx, or (where nothing a payer could pay was made: a Checkout Pro preference)
 * it did not answer in time. Nothing there can be paid: the next processor of a routing rule may be
 * tried. A request that may have been done (a timeout once it was sent) is CheckoutOutcomeUnknownError.
 */
export class ProcessorUnavailableError extends Error {
  constructor(
    readonly gateway: string,
    detail: string,
  ) {
    super(`${gateway}: ${detail}`);
    this.name = 'ProcessorUnavailableError';
  }
}

export class CheckoutOutcomeUnknownError extends Error {
  constructor(
    readonly gateway: string,
    /** The gateway's reference of the payment, when it told one. */
    readonly reference: string | null,
    detail: string,
  ) {
    super(`${gateway}: ${detail}`);
    this.name = 'CheckoutOutcomeUnknownError';
  }
}

/**
 * A chargeback as a processor tells it, read into our terms by its adapter
 * (contract §21): the case, the collection it takes back, and where it stands.
 */
export interface DisputeReport {
  /** The processor's id of the case (Mercado Pago's chargeback id, dLocal's `CHAR…`). */
  readonly reference: string;
  /** Our id of the disputed collection (the ledger's payin), as the adapter found it from the processor's payment. */
  readonly chargeId: string;
  /** Minor units. */
  readonly amount: number;
  readonly currency: Currency;
  readonly reason: DisputeReason;
  /** NEEDS_RESPONSE: the merchant may answer; UNDER_REVIEW: the processor has the evidence; WON or LOST: decided. */
  readonly status: 'NEEDS_RESPONSE' | 'UNDER_REVIEW' | 'WON' | 'LOST';
  /** The last moment evidence is taken, when the processor gives one. */
  readonly evidenceDueBy: Date | null;
  /**
   * CLAIM: the payer's claim at the processor (Mercado Pago's mediation), which
   * the processor ends by refunding the payer (LOST) or releasing the money
   * (WON); CHARGEBACK (the default): the payer's bank took it back.
   */
  readonly kind?: 'CHARGEBACK' | 'CLAIM';
  /** Only news of a case already open (how a claim ended): never opens one. */
  readonly updateOnly?: boolean;
}

/** One evidence file sent to a processor. */
export interface DisputeEvidenceFile {
  readonly fileName: string;
  readonly contentType: 'application/pdf' | 'image/png' | 'image/jpeg';
  readonly content: Buffer;
}

/**
 * A refund of a collection as its processor lists it (contract §23): ours
 * (made through our API, known by its reference) or one made at the
 * processor itself (its panel, its API used by someone else).
 */
export interface ProcessorRefund {
  /** The processor's id of the refund. */
  readonly reference: string;
  /** Minor units of the collection's currency. */
  readonly amount: number;
  readonly currency: Currency;
  readonly status: 'APPROVED' | 'PENDING' | 'REJECTED';
}

/**
 * What a gateway told in a verified notification, read into our terms by its
 * adapter (which checks it and reads the resource from the gateway itself):
 * news of a collection attempt (its outcome, the refunds the processor lists
 * on it, and a chargeback or claim it is under), of a refund of ours, or
 * nothing we act on.
 */
export type GatewayNotice =
  | {
      readonly kind: 'CHARGE';
      readonly payinId: string;
      readonly event: GatewayEvent;
      /** Every refund the processor lists on the payment (ours among them), when it lists them. */
      readonly refunds?: readonly ProcessorRefund[];
      /** The chargeback or claim the payment is under (or one that ended), when the payment says so. */
      readonly dispute?: DisputeReport;
    }
  | {
      readonly kind: 'REFUND';
      readonly refundId: string;
      readonly status: 'APPROVED' | 'REJECTED' | 'PENDING';
      readonly reference: string;
      readonly error?: string;
    }
  | { readonly kind: 'DISPUTE'; readonly dispute: DisputeReport }
  /** A Pix Automático authorisation changed (contract §31): `setupId` the setup it was asked for (read from the processor). */
  | { readonly kind: 'PIX_AUTHORISATION'; readonly setupId: string; readonly reference: string }
  | { readonly kind: 'UNKNOWN' }
  | { readonly kind: 'IGNORED' };

/** A notice about a collection or a refund (the payment-intent context applies them; disputes go to their own context). */
export type PaymentNotice = Exclude<GatewayNotice, { readonly kind: 'DISPUTE' } | { readonly kind: 'PIX_AUTHORISATION' }>;

/** A request whose id the gateway voided earlier (reconciliation asked about it before it arrived). */
export class GatewayRequestVoidedError extends Error {
  constructor(readonly requestId: string) {
    super(`the gateway voided request ${requestId}`);
    this.name = 'GatewayRequestVoidedError';
  }
}

/** What an installment quote asks a processor (contract §25). Amounts in minor units. */
export interface InstallmentQuoteRequest {
  readonly merchantId: string;
  readonly method: CollectionMethod;
  /** The card's first 6 or 8 digits; null when only the method is known (a saved card whose BIN was never told). */
  readonly bin: string | null;
  readonly currency: Currency;
  readonly amount: number;
  /**
   * Up to how many installments the merchant pays the interest (its policy): a processor that prices
   * each request (the sandbox) quotes those plans interest-free with the merchant's financing fee; a
   * processor whose promotions live in the merchant's account there (Mercado Pago, dLocal) says itself.
   */
  readonly interestFreeUpTo: number;
}

/** One plan a processor offers for a card and amount, in minor units. */
export interface ProcessorInstallmentPlan {
  readonly installments: number;
  /** Each installment the payer pays. */
  readonly installmentAmount: number;
  /** What the payer pays in all: the amount, or more when the payer pays interest. */
  readonly totalAmount: number;
  /** The financing fee the merchant pays for an interest-free plan, where the processor quotes it; null otherwise. */
  readonly merchantFinancingFee: number | null;
  /** The processor's own id of the plan, where paying with it needs it (dLocal's installments_id). */
  readonly planId?: string;
}

/**
 * The one port through which the service talks to a gateway (contract §10).
 * Amounts are integer minor units; each adapter converts to its gateway's
 * format at its own edge. Every request carries our id for it (the payin's
 * id) as the gateway's idempotency key: sending it again returns the first
 * outcome, never a second charge or refund.
 */
export abstract class PaymentGateway {
  abstract readonly name: string;
  /** How payers and merchants know it (in messages). */
  abstract readonly displayName: string;
  /**
   * Whose account the merchant's payments at this gateway are collected
   * into now (contract §23): the sandbox is the platform's own; a processor
   * says what the merchant's connection says. Asked at each approval, which
   * fixes it for that payin; inside a transaction, pass it.
   */
  fundsFlowOf(merchantId: string, tx?: Transaction): Promise<FundsFlow> {
    void merchantId;
    void tx;
    return Promise.resolve('PLATFORM');
  }
  /** Whether it collects this method (a merchant may route a method name to it that it serves in one country only). */
  serves(method: CollectionMethod): boolean {
    void method;
    return true;
  }
  /** A page where the payer completes the payment. */
  abstract openCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** The address of a checkout already opened. */
  abstract checkoutUrl(reference: string): Promise<string>;
  abstract refund(request: RefundRequest): Promise<RefundOutcome>;
  /** What became of our request `requestId` of `merchantId` (crash recovery, lost callbacks). */
  abstract lookup(requestId: string, merchantId: string): Promise<GatewayRequestStatus>;
}

/*
 * Capabilities: what only some processors do is an interface of its own that an adapter
 * implements or does not, never a flag beside a stub. Callers ask for the capability (the guards
 * below) and act on what they get; an adapter that lacks one has no method to call by mistake.
 */

/** Charges a saved instrument without the payer (off-session). */
export interface ChargesOffSession {
  /**
   * Whether the merchant's account may charge a saved instrument without the payer (contract §31: Mercado Pago only
   * where the account has automatic payments); false: 409 Payins:OFF_SESSION_NOT_AVAILABLE before anything is written.
   * Asked inside a transaction, pass it.
   */
  offSessionAvailable(merchantId: string, tx?: Transaction): Promise<boolean>;
  chargeOffSession(request: ChargeRequest): Promise<ChargeOutcome>;
  /**
   * Whether a refusal it reported (the outcome's `error`, as it writes it) may be paid by a later try (contract §31's
   * dunning), read in its decline table; undefined when the text is not one of its refusals.
   */
  declineKindOf(error: string): DeclineKind | undefined;
}

/**
 * Takes a dispute's evidence through its API (contract §21), for the case `reference` of
 * `merchantId`'s account. Sending the same files again is harmless (the processor keeps documents,
 * it decides once). Without it the merchant uploads the evidence at the processor.
 */
export interface TakesDisputeEvidence {
  submitDisputeEvidence(merchantId: string, reference: string, files: readonly DisputeEvidenceFile[]): Promise<void>;
}

/**
 * Reports outcomes to the generic callback route (`/gateway/callbacks/:gateway`), signed over the
 * raw bytes, which it verifies. Processors whose notifications need the merchant's secret have
 * routes of their own instead.
 */
export interface SignsCallbacks {
  verifyCallback(headers: Record<string, string | string[] | undefined>, rawBody: Buffer): GatewayEvent;
}

/**
 * Closes a checkout the service no longer wants (another method chosen, or expired). Without it the
 * processor's page expires by itself, and a payment made on it anyway meets a final attempt here, which
 * absorbs it (logged, for the merchant to refund; docs/processors.md).
 */
export interface ClosesCheckouts {
  closeCheckout(reference: string, reason: 'CANCELLED' | 'EXPIRED'): Promise<void>;
}

/**
 * Offers its own installment plans for a card and amount (contract §25), the single payment included.
 * Unreachable or slow: DomainError GATEWAY_UNREACHABLE; a card or amount it will not quote:
 * INSTALLMENTS_NOT_QUOTED. Without it, a payment is one installment.
 */
export interface QuotesInstallments {
  quoteInstallments(request: InstallmentQuoteRequest): Promise<readonly ProcessorInstallmentPlan[]>;
}

/**
 * Its hosted page shows the payer the installments itself (contract §25): the page is given the
 * merchant's offer, never a choice made before it, and a request asking for more than one installment
 * is refused (INSTALLMENTS_CHOSEN_AT_PROCESSOR). A trait of its page, not a flow: the one capability that is a
 * declaration, typed so that only an adapter that says it has it.
 */
export interface ChoosesInstallmentsOnItsPage {
  readonly installmentsChosenAt: 'ITS_PAGE';
}

/**
 * Verifies every payer (contract §20): opening a checkout needs the payer's name, e-mail and identity
 * document, asked of the payer first where a page can ask.
 */
export interface VerifiesPayers {
  /** Whether this method's checkout needs the payer's identity. */
  needsPayerIdentity(method: CollectionMethod): boolean;
  /** What the payer's details lack for this method. */
  payerIdentityProblems(method: CollectionMethod, payer: PayerIdentity): PayerFieldProblem[];
  /** How the identity document is named in this method's country. */
  payerDocumentLabel(method: CollectionMethod): PayerText;
}

/**
 * Tells what it holds of a collection of ours after the fact (contract §23): its status, its refunds, a
 * chargeback or claim, as a notification would — read where no notification came (reconciliation, a refund
 * asked first). A gateway without it changes its collections only through us.
 */
export interface ReadsPayments {
  readPayment(merchantId: string, payinId: string): Promise<GatewayNotice>;
}

/**
 * Returns the money itself when a merchant confirms a manual refund (operation 23, contract §16): the
 * confirmation is sent to it as a refund. Without it, a manual refund records what the merchant refunded by
 * other means.
 */
export interface ReturnsManualRefunds {
  returnManualRefund(request: RefundRequest): Promise<RefundOutcome>;
}

/**
 * Its word on a payment may come after the payer left its page (a notification, late or lost): before
 * another attempt replaces an open one of it (contract §26), the service asks it whether the payer paid, so
 * a payer who paid there is never sent to pay again elsewhere.
 */
export interface AnswersAfterItsPage {
  whetherPaid(requestId: string, merchantId: string): Promise<GatewayRequestStatus>;
}

/** A processor's card fields a setup page embeds (contract §31): the card goes from the payer's browser to the processor. */
export interface CardFields {
  readonly processor: string;
  /** How payers know the processor (the page says the card goes to it). */
  readonly displayName: string;
  /**
   * The page's script that mounts the fields in the containers `cardNumber`, `expirationDate` and `securityCode` of
   * the form `setup-form` (its `data-public-key`, `data-language`), and on submit puts the processor's card token in
   * `cardToken` and submits it (showing `fields-error` when the fields refuse the card).
   */
  readonly mount: string;
  /** The processor's browser script (its SDK), loaded by the page. */
  readonly script: string;
  /** The key its fields tokenize with (public: it is in the page). */
  readonly publicKey: string;
  /** The origins the page's Content-Security-Policy lets the fields reach: the script's, the processor's API. */
  readonly origins: readonly string[];
  /** More settings of the script, as the form's `data-*` attributes (dLocal's: the country its fields are for). */
  readonly data?: Readonly<Record<string, string>>;
}

/** The payer a card is saved for, as the processor may need to name them (dLocal: name, document; Mercado Pago: e-mail). */
export interface CardHolder {
  readonly payerId: string;
  readonly email: string | null;
  readonly name: string | null;
  readonly document: string | null;
  readonly documentType: string | null;
  /** The merchant's country (ISO 3166-1 alpha-3), where the card is saved. */
  readonly country: string;
}

/** A card the processor saved for a payer: what charges it, and the parts we may keep (never the number or the code). */
export interface SavedCard {
  /** What a charge names it by (the instrument's external id): the processor's customer and card. */
  readonly reference: string;
  /** The card's brand as a payment method of ours (VISA, MASTERCARD, …), when the processor's answer names one we know. */
  readonly paymentMethod: string | null;
  /** CREDIT_CARD or DEBIT_CARD, as the processor tells the card (a credit card when it does not say). */
  readonly instrumentType: 'CREDIT_CARD' | 'DEBIT_CARD';
  /** Its first six digits, when the processor's answer has them (dLocal's saved card has the last four only). */
  readonly bin: string | null;
  readonly last4: string;
  readonly expMonth: number;
  readonly expYear: number;
}

/** A card the processor would not save (the token was refused, the card declined): the payer is told and may try again. */
export class CardNotSavedError extends Error {}

/**
 * Saves cards without charging them (contract §31): its fields on our setup page tokenize the card in the payer's
 * browser; `saveCard` turns that token into a card kept at the processor for the payer. Without it, the setup page
 * offers none of its methods.
 */
export interface SavesCards {
  /**
   * Its fields for the merchant's setup page in `country` (ISO alpha-3), or null when the merchant's account cannot
   * show them (no public key) or it saves no card there.
   */
  cardFields(merchantId: string, country: string, tx?: Transaction): Promise<CardFields | null>;
  /** The card a token of its fields stands for, saved for the payer; CardNotSavedError when it will not keep it. */
  saveCard(merchantId: string, holder: CardHolder, token: string): Promise<SavedCard>;
}

/** Pix Automático's periodicities (Banco Central do Brasil): a subscription it pays has one of these cycles. */
export const PIX_FREQUENCIES = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] as const;
export type PixFrequency = (typeof PIX_FREQUENCIES)[number];

/** What a payer authorises once in the bank's app (contract §31): a fixed amount in BRL, a periodicity, from a date. */
export interface PixMandate {
  /** Minor units of BRL: every charge is exactly this. */
  readonly amount: number;
  readonly frequency: PixFrequency;
  /** The first billing date (YYYY-MM-DD). */
  readonly startDate: string;
  readonly description: string;
}

/** An authorisation as the processor tells it: its id there, where it stands, and while pending where the payer authorises it. */
export interface PixAuthorisation {
  readonly reference: string;
  readonly status: 'PENDING' | 'ACTIVE' | 'REJECTED' | 'CANCELLED';
  readonly authoriseUrl: string | null;
}

/** A Pix Automático authorisation the processor would not open (the payer's identity, the terms): the payer is told. */
export class PixNotAuthorisedError extends Error {}

/**
 * Pix Automático (contract §31): the payer authorises recurring charges once, in the bank's app, through the processor's
 * journey; charges are then made off-session with a `schedule` (ChargesOffSession), 2 to 10 days before each billing date.
 */
export interface AuthorizesRecurringPix {
  /**
   * Opens an authorisation of `mandate` for the payer (`setupId`: ours, the processor keeps it as its external id), the
   * payer brought back to `returnUrl` after the processor's journey; PixNotAuthorisedError when the processor refuses.
   */
  authorizePix(merchantId: string, holder: CardHolder, mandate: PixMandate, setupId: string, returnUrl: string): Promise<PixAuthorisation>;
  /** The authorisation as the processor tells it now. */
  pixAuthorisation(merchantId: string, reference: string): Promise<PixAuthorisation>;
}

const has = (gateway: PaymentGateway, method: string): boolean =>
  typeof (gateway as unknown as Record<string, unknown>)[method] === 'function';

export function chargesOffSession(gateway: PaymentGateway): gateway is PaymentGateway & ChargesOffSession {
  return has(gateway, 'chargeOffSession');
}

export function savesCards(gateway: PaymentGateway): gateway is PaymentGateway & SavesCards {
  return has(gateway, 'saveCard');
}

export function authorizesRecurringPix(gateway: PaymentGateway): gateway is PaymentGateway & AuthorizesRecurringPix {
  return has(gateway, 'authorizePix');
}

export function takesDisputeEvidence(gateway: PaymentGateway): gateway is PaymentGateway & TakesDisputeEvidence {
  return has(gateway, 'submitDisputeEvidence');
}

export function signsCallbacks(gateway: PaymentGateway): gateway is PaymentGateway & SignsCallbacks {
  return has(gateway, 'verifyCallback');
}

export function closesCheckouts(gateway: PaymentGateway): gateway is PaymentGateway & ClosesCheckouts {
  return has(gateway, 'closeCheckout');
}

export function quotesInstallments(gateway: PaymentGateway): gateway is PaymentGateway & QuotesInstallments {
  return has(gateway, 'quoteInstallments');
}

export function choosesInstallmentsOnItsPage(gateway: PaymentGateway): gateway is PaymentGateway & ChoosesInstallmentsOnItsPage {
  return (gateway as Partial<ChoosesInstallmentsOnItsPage>).installmentsChosenAt === 'ITS_PAGE';
}

export function verifiesPayers(gateway: PaymentGateway): gateway is PaymentGateway & VerifiesPayers {
  return has(gateway, 'needsPayerIdentity');
}

export function readsPayments(gateway: PaymentGateway): gateway is PaymentGateway & ReadsPayments {
  return has(gateway, 'readPayment');
}

export function returnsManualRefunds(gateway: PaymentGateway): gateway is PaymentGateway & ReturnsManualRefunds {
  return has(gateway, 'returnManualRefund');
}

export function answersAfterItsPage(gateway: PaymentGateway): gateway is PaymentGateway & AnswersAfterItsPage {
  return has(gateway, 'whetherPaid');
}

/** Every capability an adapter may have, by the name docs/architecture.md gives it. */
export const CAPABILITIES = {
  ChargesOffSession: chargesOffSession,
  TakesDisputeEvidence: takesDisputeEvidence,
  SignsCallbacks: signsCallbacks,
  ClosesCheckouts: closesCheckouts,
  QuotesInstallments: quotesInstallments,
  ChoosesInstallmentsOnItsPage: choosesInstallmentsOnItsPage,
  VerifiesPayers: verifiesPayers,
  ReadsPayments: readsPayments,
  ReturnsManualRefunds: returnsManualRefunds,
  AnswersAfterItsPage: answersAfterItsPage,
  SavesCards: savesCards,
  AuthorizesRecurringPix: authorizesRecurringPix,
} as const;
