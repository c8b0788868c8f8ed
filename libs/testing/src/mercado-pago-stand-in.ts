/*
 * Why one file: one remote system (Mercado Pago's API, its Checkout Pro page, notifications and reports) over
 * the state one account holds; split, one simulated account's state would be spread over files.
 */
/**
 * A stand-in for Mercado Pago's API, built from its public documentation and
 * strict where it is strict (headers, signatures, amounts, statuses, ids).
 * Long because it is one outside system: payments, preferences, refunds,
 * chargebacks, reports and notifications share its state and must be read
 * together against the documentation.
 */
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import { answerBrowser, escape, header, json, readBytes, readMultipart, StandInServer } from './stand-in-server';
import { MercadoPagoCards, mercadoPagoSdk, TEST_CARD_OUTCOMES } from './mercado-pago-cards-stand-in';

/**
 * A stand-in for Mercado Pago's API, for tests and for trying the flow
 * locally (never in the production path). Written from Mercado Pago's public
 * developer documentation, not from our adapter, and strict where it is:
 * `Authorization: Bearer <access token>` on every request, `X-Idempotency-Key`
 * on every POST (the same key answers the first answer again), the
 * preference's required fields, decimal amounts with the currency's
 * precision. Its `init_point` is a page where a person approves, rejects or
 * leaves the payment pending; notifications are signed as Mercado Pago signs
 * them (`x-signature: ts=…,v1=HMAC(id:<data.id>;request-id:<x-request-id>;ts:<ts>;)`)
 * and sent to the preference's `notification_url` as
 * `POST ?data.id=<payment id>&type=payment`. `notifications` can delay,
 * repeat, hold (to send later, in any order) or drop them.
 *
 * Chargebacks (its chargebacks guides and API reference): a case has an
 * 18-digit id (a string in `GET /v1/chargebacks/:id`, a bare JSON number in
 * the notification's body, as the documentation's example shows, so reading
 * it from the body loses digits), `payments`, `currency`, `amount`, `reason`,
 * `coverage_applied` (null until decided), `coverage_elegible` (so spelled),
 * `documentation_required`, `documentation_status` and
 * `date_documentation_deadline`. It is notified to the application's webhook
 * URL (Your integrations › Webhooks, `webhook(token, url)`), never to a
 * preference's notification_url, as `POST ?data.id=<case>&type=topic_chargebacks_wh`,
 * signed the same way. `POST /v1/chargebacks/:id/documentation` takes
 * `files[]` parts (.jpg, .png or .pdf, 10 MB in all) and answers 200, the
 * case's documentation_status becoming review_pending.
 */

interface Account {
  readonly userId: number;
  readonly webhookSecret: string;
  /** The application's public key (its card fields in a browser), when the test gave one. */
  readonly publicKey: string | null;
  /** Whether Mercado Pago enabled automatic payments (Card on File): saved cards charged without their code. */
  automaticPayments: boolean;
  /** The account's site currency (what its payments are in), when the test named it. */
  readonly currency: string | null;
  /** The application's webhook URL, where chargebacks are notified (null until configured). */
  webhookUrl: string | null;
}

export interface StandInChargeback {
  readonly id: string;
  readonly payments: number[];
  readonly currency: string;
  amount: number;
  reason: string;
  coverage_applied: boolean | null;
  coverage_elegible: boolean;
  documentation_required: boolean;
  documentation_status: 'pending' | 'review_pending' | 'valid' | 'invalid' | 'not_supplied' | 'not_applicable';
  documentation: { type: string; url: string; description: string }[];
  date_documentation_deadline: string | null;
  date_created: string;
  date_last_updated: string;
  live_mode: boolean;
  readonly token: string;
}

/** Mercado Pago's documentation upload limit: 10 MB for all the files. */
const DOCUMENTATION_LIMIT = 10 * 1024 * 1024;

interface StoredPreference {
  readonly id: string;
  readonly token: string;
  readonly body: PreferenceBody;
  readonly initPoint: string;
}

interface PreferenceBody {
  items: { title: string; quantity: number; unit_price: number; currency_id: string }[];
  external_reference?: string;
  back_urls?: { success?: string; pending?: string; failure?: string };
  auto_return?: string;
  notification_url?: string;
  expires?: boolean;
  expiration_date_to?: string;
  /** Checkout Pro's installments: the most the payer may choose, and the one preselected. */
  payment_methods?: { installments?: unknown; default_installments?: unknown };
}

export interface StandInRefund {
  id: number;
  payment_id: number;
  amount: number;
  status: string;
  date_created: string;
  /** Who made it: the collector through the API (`source.type` collector, as our refunds are), or Mercado Pago's panel or a claim. */
  source: { id: string; name: string; type: string };
}

export interface StandInPayment {
  id: number;
  status: 'approved' | 'rejected' | 'pending' | 'in_process' | 'cancelled' | 'refunded' | 'charged_back' | 'in_mediation';
  status_detail: string;
  external_reference: string | null;
  transaction_amount: number;
  currency_id: string;
  date_created: string;
  payment_method_id: string;
  /** The card paid with, as the payment resource describes it (its first six and last four digits and expiry). */
  card: { first_six_digits: string; last_four_digits: string; expiration_month: number; expiration_year: number };
  /** The installments the payer chose, and what they pay in all and each. */
  installments: number;
  transaction_details: { total_paid_amount: number; installment_amount: number; net_received_amount: number };
  /** Mercado Pago's fee on an approved payment (its `fee_details`, paid by the collector). */
  fee_details?: { type: string; amount: number; fee_payer: string }[];
  date_approved?: string | null;
  /** When the money is released to the seller's available balance (the release report's DATE). */
  money_release_date?: string | null;
  /** What was refunded of it so far (approved refunds). */
  transaction_amount_refunded: number;
  refunds: StandInRefund[];
  readonly token: string;
  readonly notificationUrl: string | null;
}

interface StandInReport {
  readonly id: number;
  readonly token: string;
  readonly begin: Date;
  readonly end: Date;
  readonly fileName: string;
  readonly readyAt: number;
  readonly createdAt: string;
}

export interface HeldNotification {
  readonly paymentId: number;
  send(): Promise<number>;
}

/** Currencies Mercado Pago takes and the decimals it accepts in each. */
const DECIMALS: Record<string, number> = { ARS: 2, BRL: 2, UYU: 2, CLP: 0, COP: 0, MXN: 2, PEN: 2, USD: 2 };

export class MercadoPagoStandIn extends StandInServer {
  private readonly accounts = new Map<string, Account>();
  /** Every preference created, by id (what Checkout Pro was asked to show). */
  readonly preferences = new Map<string, StoredPreference>();
  readonly payments = new Map<number, StandInPayment>();
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  // Mercado Pago's ids are unique across all its accounts: each stand-in starts its own range, so
  // stand-ins of different test files never hand out the same payment (the service keys events on it).
  private nextPayment = 1_300_000_000 + crypto.randomInt(0, 2 ** 30) * 16;
  private nextRefund = 2_000_000_000 + crypto.randomInt(0, 2 ** 30) * 16;
  /** Every request the stand-in received (method, path), for assertions. */
  readonly requests: { method: string; path: string; idempotencyKey: string | undefined }[] = [];

  /** How notifications are sent: at once (default), delayed, repeated, held for the test to send, or dropped. */
  notifications: { mode: 'send' | 'hold' | 'drop'; delayMs: number; repeat: number } = { mode: 'send', delayMs: 0, repeat: 1 };
  readonly held: HeldNotification[] = [];
  /**
   * Faults for the next requests to a path prefix: answer an HTTP status, `hang` (never answer, nothing done),
   * or `late` (wait `lateMs`, then do the work and answer: the caller may be gone by then).
   */
  readonly faults: { method: string; pathPrefix: string; answer: number | 'hang' | 'late'; times: number; lateMs?: number }[] = [];
  /** What the next refund answers: approved (default), or rejected by Mercado Pago. */
  refundStatus: 'approved' | 'rejected' = 'approved';
  /** Mercado Pago's fee on approved payments (a fraction of the amount, rounded to the currency's decimals). */
  feeRate = 0.0399;
  /** The financing fee of an interest-free installment plan the seller pays (0: none). */
  financingFeeRate = 0;
  /**
   * The financing fee the seller pays per count of an interest-free plan of its promotion (percent of
   * the amount), when the payer pays in installments; `financingFeeRate` applies otherwise. Example
   * figures of this stand-in, not Mercado Pago's price list.
   */
  financingRates: Record<number, number> = { 3: 7.5, 6: 12.5, 9: 17.5, 12: 22.5 };
  /**
   * The seller's installment offer (GET /v1/payment_methods/installments): per count, the payer's
   * `installment_rate` (percent of the amount over the plan); counts up to `interestFreeUpTo` are the
   * seller's promotion, interest-free for the payer (rate 0, the seller pays the financing fee).
   */
  installmentRates: Record<number, number> = { 1: 0, 3: 18.29, 6: 35.48, 9: 52.67, 12: 69.86 };
  interestFreeUpTo = 1;
  /** The card a BIN is, as Mercado Pago identifies it: Visa from 4, Mastercard from 5 (a test may add others). */
  readonly bins: { prefix: string; paymentMethodId: string }[] = [
    { prefix: '4', paymentMethodId: 'visa' },
    { prefix: '5', paymentMethodId: 'master' },
  ];
  /** Taxes withheld on each release (Argentina's IIBB and similar), a fraction of the gross (0: none). */
  withholdingRate = 0;
  /** Days from approval until the money is released (money_release_date; 0: at once). */
  releaseDelayDays = 0;
  /** Whether the report list names the report's currency (`currency_id`); the documented response does not promise it. */
  listsReportCurrency = true;
  /** Money held and released (chargebacks, claims), for the release report's block, unblock and chargeback lines. */
  private readonly blocks: { paymentId: number; kind: 'block' | 'unblock' | 'chargeback'; at: string }[] = [];
  /** How long a release report takes to be ready (listed `pending` until then). */
  reportDelayMs = 0;
  /** Edits of the next release reports, for tests of reconciliation: lines left out, amounts or fees changed, lines added. */
  readonly reportEdits: {
    omit: Set<number>;
    gross: Map<number, number>;
    /** A payment's GROSS_AMOUNT written as this text (a report whose amounts cannot be read). */
    grossText: Map<number, string>;
    fee: Map<number, number>;
    extra: { sourceId: string; externalReference: string; gross: number; fee: number; description: string; recordType?: string }[];
  } = { omit: new Set(), gross: new Map(), grossText: new Map(), fee: new Map(), extra: [] };
  private readonly reports: { id: number; token: string; begin: Date; end: Date; fileName: string; readyAt: number; createdAt: string }[] =
    [];
  private nextReport = 90_000_000_000 + crypto.randomInt(0, 2 ** 30);

  /**
   * An account whose access token and webhook secret a merchant would paste into our API; with a public key its card
   * fields make tokens in a browser, with automatic payments its saved cards are charged without their code.
   */
  account(
    accessToken: string,
    webhookSecret: string,
    options: { publicKey?: string; automaticPayments?: boolean; currency?: string } = {},
  ): this {
    this.accounts.set(accessToken, {
      userId: 100_000 + this.accounts.size,
      webhookSecret,
      webhookUrl: null,
      publicKey: options.publicKey ?? null,
      automaticPayments: options.automaticPayments ?? false,
      currency: options.currency ?? null,
    });
    return this;
  }

  /** Mercado Pago enables (or withdraws) automatic payments for the account. */
  automaticPayments(accessToken: string, enabled: boolean): this {
    this.accounts.get(accessToken)!.automaticPayments = enabled;
    return this;
  }

  /** Customers, their saved cards and card tokens (mercado-pago-cards-stand-in.ts). */
  readonly cards = new MercadoPagoCards(
    (publicKey) => [...this.accounts.entries()].find(([, account]) => account.publicKey === publicKey)?.[0],
    (token) => this.accounts.get(token)!.userId,
    (bin) => this.bins.find((b) => bin.startsWith(b.prefix))?.paymentMethodId,
  );

  /** The application's webhook URL, as a merchant configures it at Mercado Pago (where chargebacks are notified). */
  webhook(accessToken: string, url: string): this {
    this.accounts.get(accessToken)!.webhookUrl = url;
    return this;
  }

  readonly chargebacks = new Map<string, StandInChargeback>();

  /**
   * A payer's bank takes an approved payment back: the case (an 18-digit id,
   * or the one given), the payment `charged_back`, and the notification to
   * the application's webhook URL.
   */
  async chargeback(
    paymentId: number,
    options: { id?: string; reason?: string; deadline?: Date | null; amount?: number } = {},
  ): Promise<StandInChargeback> {
    const payment = this.payments.get(paymentId)!;
    const now = new Date().toISOString();
    const chargeback: StandInChargeback = {
      id: options.id ?? `23${String(crypto.randomInt(1e7, 1e8))}${String(crypto.randomInt(1e7, 1e8))}`,
      payments: [payment.id],
      currency: payment.currency_id,
      amount: options.amount ?? payment.transaction_amount,
      reason: options.reason ?? 'general',
      coverage_applied: null,
      coverage_elegible: true,
      documentation_required: true,
      documentation_status: 'pending',
      documentation: [],
      date_documentation_deadline:
        options.deadline === undefined ? new Date(Date.now() + 10 * 86_400_000).toISOString() : (options.deadline?.toISOString() ?? null),
      date_created: now,
      date_last_updated: now,
      live_mode: false,
      token: payment.token,
    };
    this.chargebacks.set(chargeback.id, chargeback);
    payment.status = 'charged_back';
    this.blocks.push({ paymentId, kind: 'block', at: now });
    // Both are told: the case to the application's webhook URL, the payment's change to its own notification_url.
    await this.notifyChargeback(chargeback);
    await this.notify(payment);
    return chargeback;
  }

  /** The case's amount changed (a partial chargeback revised by the issuer); notified again. */
  async changeChargebackAmount(id: string, amount: number): Promise<void> {
    const chargeback = this.chargebacks.get(id)!;
    chargeback.amount = amount;
    chargeback.date_last_updated = new Date().toISOString();
    await this.notifyChargeback(chargeback);
  }

  /** Mercado Pago's decision: covered (the seller keeps the money) or not; notified again. */
  async decideChargeback(id: string, covered: boolean): Promise<void> {
    const chargeback = this.chargebacks.get(id)!;
    chargeback.coverage_applied = covered;
    // Covered: the held money goes back to the seller's balance; not covered: it leaves for good.
    for (const paymentId of chargeback.payments)
      this.blocks.push({ paymentId, kind: covered ? 'unblock' : 'chargeback', at: new Date().toISOString() });
    if (chargeback.documentation_status === 'review_pending') chargeback.documentation_status = covered ? 'valid' : 'invalid';
    chargeback.date_last_updated = new Date().toISOString();
    await this.notifyChargeback(chargeback);
  }

  /** The case's notification (topic topic_chargebacks_wh) to the account's webhook URL; its body carries the id as a bare number. */
  async notifyChargeback(chargeback: StandInChargeback, signedWith?: string): Promise<number> {
    const account = this.accounts.get(chargeback.token)!;
    if (!account.webhookUrl || this.notifications.mode === 'drop') return 0;
    const url = new URL(account.webhookUrl);
    url.searchParams.set('data.id', chargeback.id);
    url.searchParams.set('type', 'topic_chargebacks_wh');
    const body =
      `{"actions":["changed_case_status"],"api_version":"v1","application_id":${account.userId}0,"data":{"checkout":"PRO",` +
      `"date_updated":"${chargeback.date_last_updated}","id":${chargeback.id},"payment_id":${chargeback.payments[0]},"product_id":"C00A2J8RF4DI8BCIMFU0",` +
      `"site_id":"MLU","transaction_intent_id":""},"date_created":"${new Date().toISOString()}","id":${crypto.randomInt(1e9, 1e10)},` +
      `"live_mode":false,"type":"topic_chargebacks_wh","user_id":${account.userId},"version":${Math.floor(Date.now() / 1000)}}`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...this.signedHeaders(signedWith ?? account.webhookSecret, chargeback.id) },
      body,
    }).catch(() => null);
    return response?.status ?? 0;
  }

  /** The payer's decision on a preference's page, as its buttons post it (a test may do it without a browser). */
  async decide(preferenceId: string, outcome: 'approve' | 'reject' | 'pending', installments?: number): Promise<StandInPayment> {
    const preference = this.preferences.get(preferenceId);
    if (!preference) throw new Error(`no preference ${preferenceId}`);
    const item = preference.body.items[0];
    const chosen = installments ?? (preference.body.payment_methods?.default_installments as number | undefined) ?? 1;
    const plan = this.planOf(item.unit_price * item.quantity, chosen, DECIMALS[item.currency_id]);
    const payment: StandInPayment = {
      id: this.nextPayment++,
      status: outcome === 'approve' ? 'approved' : outcome === 'reject' ? 'rejected' : 'in_process',
      status_detail:
        outcome === 'approve' ? 'accredited' : outcome === 'reject' ? 'cc_rejected_insufficient_amount' : 'pending_contingency',
      external_reference: preference.body.external_reference ?? null,
      transaction_amount: item.unit_price * item.quantity,
      currency_id: item.currency_id,
      date_created: new Date().toISOString(),
      payment_method_id: 'visa',
      // Mercado Pago's documented Visa test card (4509 9535 6623 3704, 11/30).
      card: { first_six_digits: '450995', last_four_digits: '3704', expiration_month: 11, expiration_year: 2030 },
      installments: chosen,
      transaction_details: { total_paid_amount: plan.total, installment_amount: plan.installment, net_received_amount: 0 },
      fee_details: [],
      date_approved: null,
      money_release_date: null,
      transaction_amount_refunded: 0,
      refunds: [],
      token: preference.token,
      notificationUrl: preference.body.notification_url ?? null,
    };
    if (payment.status === 'approved') this.approved(payment);
    this.payments.set(payment.id, payment);
    await this.notify(payment);
    return payment;
  }

  /** What the payer pays for `installments` of the amount: its promotion interest-free, the rest at the offer's rate. */
  private planOf(amount: number, installments: number, decimals: number): { total: number; installment: number } {
    const rate = installments <= this.interestFreeUpTo ? 0 : (this.installmentRates[installments] ?? 0);
    const total = round(amount * (1 + rate / 100), decimals);
    return { total, installment: round(total / installments, decimals) };
  }

  /**
   * An approval: the fee Mercado Pago keeps (and, with `financingFeeRate`,
   * the financing fee of an interest-free installment plan), and the day the
   * money is released (`money_release_date`: at once, or `releaseDelayDays`
   * later, as the account's release terms say).
   */
  private approved(payment: StandInPayment): void {
    const decimals = DECIMALS[payment.currency_id];
    // An interest-free plan of the seller's promotion costs it the plan's financing fee; otherwise `financingFeeRate`, if any.
    const promoted = payment.installments > 1 && payment.installments <= this.interestFreeUpTo;
    const financingRate = promoted ? (this.financingRates[payment.installments] ?? 0) / 100 : this.financingFeeRate;
    payment.fee_details = [
      { type: 'mercadopago_fee', amount: round(payment.transaction_amount * this.feeRate, decimals), fee_payer: 'collector' },
      ...(financingRate > 0
        ? [{ type: 'financing_fee', amount: round(payment.transaction_amount * financingRate, decimals), fee_payer: 'collector' }]
        : []),
    ];
    payment.transaction_details.net_received_amount = round(
      payment.transaction_amount - payment.fee_details.reduce((sum, fee) => sum + fee.amount, 0),
      decimals,
    );
    const approvedAt = new Date();
    payment.date_approved = approvedAt.toISOString();
    payment.money_release_date = new Date(approvedAt.getTime() + this.releaseDelayDays * 86_400_000).toISOString();
  }

  /**
   * A refund made at Mercado Pago itself (the seller's panel, or its API used
   * by another integration; contract §23): the whole rest when no amount is
   * given. The payment becomes `refunded` when nothing is left, and stays
   * `approved` with status_detail `partially_refunded` otherwise; the
   * payment's notification follows, as on any change.
   */
  async refundAtProcessor(paymentId: number, amount?: number): Promise<StandInRefund> {
    const payment = this.payments.get(paymentId)!;
    const [status, answer] = this.refund(payment.token, paymentId, amount === undefined ? {} : { amount }, {
      id: String(this.accounts.get(payment.token)!.userId),
      name: 'mercadopago_panel',
      type: 'collector',
    });
    if (status !== 201) throw new Error(`Mercado Pago refused the refund: ${JSON.stringify(answer)}`);
    await this.notify(payment);
    return answer as StandInRefund;
  }

  /** The payer opens a claim: the payment is `in_mediation` (its money held) and notified. */
  async mediate(paymentId: number): Promise<void> {
    const payment = this.payments.get(paymentId)!;
    payment.status = 'in_mediation';
    payment.status_detail = 'in_mediation';
    this.blocks.push({ paymentId, kind: 'block', at: new Date().toISOString() });
    await this.notify(payment);
  }

  /**
   * Mercado Pago decides a claim: for the seller, the payment is `approved`
   * again (the money released); for the payer, Mercado Pago refunds what is
   * left (a refund of source `mediation`) and the payment is `refunded`.
   */
  async resolveMediation(paymentId: number, favour: 'seller' | 'buyer'): Promise<void> {
    const payment = this.payments.get(paymentId)!;
    this.blocks.push({ paymentId, kind: 'unblock', at: new Date().toISOString() });
    payment.status = 'approved';
    payment.status_detail = 'accredited';
    if (favour === 'buyer') {
      const [status] = this.refund(payment.token, paymentId, {}, { id: 'mediation', name: 'mediation', type: 'mediation' });
      if (status !== 201) throw new Error('the claim could not refund the payer');
    }
    await this.notify(payment);
  }

  /** A payment left in process is decided later (as an asynchronous method settles), and notified. */
  async settle(paymentId: number, status: 'approved' | 'rejected'): Promise<void> {
    const payment = this.payments.get(paymentId)!;
    payment.status = status;
    payment.status_detail = status === 'approved' ? 'accredited' : 'cc_rejected_other_reason';
    if (status === 'approved') this.approved(payment);
    await this.notify(payment);
  }

  /**
   * Ends every checkout still open (no payment, or one still in process) with a rejection, notified:
   * a test leaves no attempt waiting for a Mercado Pago that is about to stop.
   */
  async rejectOpen(): Promise<void> {
    this.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    for (const preference of this.preferences.values()) {
      const payments = [...this.payments.values()].filter((p) => p.external_reference === (preference.body.external_reference ?? null));
      const open = payments.filter((p) => p.status === 'in_process' || p.status === 'pending');
      for (const payment of open) await this.settle(payment.id, 'rejected');
      if (payments.length === 0) await this.decide(preference.id, 'reject');
    }
  }

  /** The `x-signature` and `x-request-id` Mercado Pago would send for a notification about `dataId`. */
  signedHeaders(webhookSecret: string, dataId: string, ts = String(Math.floor(Date.now() / 1000))): Record<string, string> {
    const requestId = crypto.randomUUID();
    const id = /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
    const v1 = crypto.createHmac('sha256', webhookSecret).update(`id:${id};request-id:${requestId};ts:${ts};`).digest('hex');
    return { 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId };
  }

  /** The payment's notification (topic payment) to its preference's notification_url, as on any change of it. */
  async notify(payment: StandInPayment): Promise<void> {
    if (!payment.notificationUrl || this.notifications.mode === 'drop') return;
    const account = this.accounts.get(payment.token)!;
    const send = async (): Promise<number> => {
      const url = new URL(payment.notificationUrl!);
      url.searchParams.set('data.id', String(payment.id));
      url.searchParams.set('type', 'payment');
      const body = JSON.stringify({
        id: crypto.randomInt(1e9, 1e10),
        live_mode: false,
        type: 'payment',
        date_created: new Date().toISOString(),
        user_id: account.userId,
        api_version: 'v1',
        action: 'payment.updated',
        data: { id: String(payment.id) },
      });
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.signedHeaders(account.webhookSecret, String(payment.id)) },
        body,
      }).catch(() => null);
      return response?.status ?? 0;
    };
    if (this.notifications.mode === 'hold') {
      this.held.push({ paymentId: payment.id, send });
      return;
    }
    // As Mercado Pago does, a notification not answered 200/201 is sent again (here after a second, three times at most).
    const sendUntilTaken = async () => {
      for (let attempt = 0; attempt < 4; attempt++) {
        const status = await send();
        if (status === 200 || status === 201) return;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    };
    const deliver = async () => {
      for (let i = 0; i < this.notifications.repeat; i++) await sendUntilTaken();
    };
    if (this.notifications.delayMs > 0) setTimeout(() => void deliver(), this.notifications.delayMs);
    else await deliver();
  }

  protected override isPayerPage(path: string): boolean {
    return path === '/checkout/v1/redirect';
  }

  protected async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const bytes = await readBytes(request);
    const body = bytes.toString('utf8');
    const idempotencyKey = header(request, 'x-idempotency-key');
    this.requests.push({ method: request.method ?? '', path: url.pathname, idempotencyKey });
    const fault = this.faults.find((f) => f.method === request.method && url.pathname.startsWith(f.pathPrefix) && f.times > 0);
    if (fault && fault.answer === 'late') {
      fault.times -= 1;
      await new Promise((resolve) => setTimeout(resolve, fault.lateMs ?? 1000));
    } else if (fault) {
      fault.times -= 1;
      const status = fault.answer;
      if (typeof status !== 'number') return; // hang: never answers, the client's timeout decides
      return json(response, status, { message: 'stand-in fault', error: 'internal_error', status });
    }
    // The payer's pages (public, like Mercado Pago's checkout).
    if (url.pathname === '/checkout/v1/redirect') return this.page(request, response, url, body);
    // MercadoPago.js and its Secure Fields' tokens, called from the payer's browser on another origin (CORS).
    if (request.method === 'GET' && url.pathname === '/js/v2') {
      response
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
        .end(mercadoPagoSdk(this.url));
      return;
    }
    if (url.pathname === '/v1/card_tokens' && url.searchParams.has('public_key')) {
      return answerBrowser(request, response, body, (fields) => this.cards.tokenFromBrowser(url.searchParams.get('public_key'), fields));
    }

    const token = /^Bearer (\S+)$/.exec(header(request, 'authorization') ?? '')?.[1];
    if (!token || !this.accounts.has(token))
      return json(response, 401, { message: 'invalid access token', error: 'unauthorized', status: 401 });
    // A chargeback's documentation: multipart, and no idempotency key in Mercado Pago's documented request.
    const documentation = /^\/v1\/chargebacks\/(\d+)\/documentation$/.exec(url.pathname);
    if (request.method === 'POST' && documentation) {
      const [status, answer] = this.document(token, documentation[1], header(request, 'content-type'), bytes);
      return json(response, status, answer);
    }
    // Reports are no payments: Mercado Pago asks no idempotency key for them.
    if (request.method === 'POST' && url.pathname === '/v1/account/release_report') {
      const [status, answer] = this.createReport(token, body);
      return json(response, status, answer);
    }
    if (
      request.method === 'GET' &&
      url.pathname.startsWith('/v1/account/release_report/') &&
      url.pathname !== '/v1/account/release_report/list'
    ) {
      const file = this.reports.find(
        (r) => r.token === token && r.fileName === decodeURIComponent(url.pathname.slice('/v1/account/release_report/'.length)),
      );
      if (!file || file.readyAt > Date.now())
        return json(response, 404, { message: `Resource ${url.pathname} not found.`, error: 'not_found', status: 404 });
      response
        .writeHead(200, { 'content-type': 'text/csv', 'content-disposition': `attachment; filename=${file.fileName}` })
        .end(this.reportCsv(file));
      return;
    }
    if (request.method === 'POST') {
      if (!idempotencyKey)
        return json(response, 400, { message: 'X-Idempotency-Key header is required', error: 'bad_request', status: 400 });
      // The same key on the same resource answers the first answer again (the request is executed once).
      const remembered = this.idempotent.get(`${token}:${url.pathname}:${idempotencyKey}`);
      if (remembered) return json(response, remembered.status, remembered.body);
      const [status, answer] = this.post(token, url.pathname, body);
      if (status < 500) this.idempotent.set(`${token}:${url.pathname}:${idempotencyKey}`, { status, body: answer });
      return json(response, status, answer);
    }
    if (request.method === 'GET') {
      const [status, answer] = this.get(token, url);
      return json(response, status, answer);
    }
    json(response, 405, { message: 'method not allowed', error: 'method_not_allowed', status: 405 });
  }

  private post(token: string, path: string, raw: string): [number, unknown] {
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return [400, { message: 'invalid JSON', error: 'bad_request', status: 400 }];
    }
    if (path === '/checkout/preferences') return this.createPreference(token, body as PreferenceBody);
    const fields = (body ?? {}) as Record<string, unknown>;
    if (path === '/v1/card_tokens') return this.cards.tokenFromServer(token, fields);
    if (path === '/v1/customers') return this.cards.createCustomer(token, fields);
    const cards = /^\/v1\/customers\/([^/]+)\/cards$/.exec(path);
    if (cards) return this.cards.saveCard(token, decodeURIComponent(cards[1]), fields);
    if (path === '/v1/payments') return this.cardPayment(token, fields);
    const refund = /^\/v1\/payments\/(\d+)\/refunds$/.exec(path);
    if (refund) return this.refund(token, Number(refund[1]), body as { amount?: unknown });
    return [404, { message: 'resource not found', error: 'not_found', status: 404 }];
  }

  private createPreference(token: string, body: PreferenceBody): [number, unknown] {
    const invalid = (message: string): [number, unknown] => [400, { message, error: 'invalid_items', status: 400 }];
    if (!Array.isArray(body.items) || body.items.length === 0) return invalid('items needed');
    for (const item of body.items) {
      if (typeof item.title !== 'string' || item.title.length === 0) return invalid('item.title is required');
      if (!Number.isInteger(item.quantity) || item.quantity < 1) return invalid('item.quantity must be a positive integer');
      if (!(item.currency_id in DECIMALS)) return invalid(`currency_id invalid: ${String(item.currency_id)}`);
      if (typeof item.unit_price !== 'number' || !(item.unit_price > 0) || !hasDecimals(item.unit_price, DECIMALS[item.currency_id]))
        return invalid(`unit_price invalid for ${item.currency_id}: ${String(item.unit_price)}`);
    }
    if (body.auto_return !== undefined && !body.back_urls?.success)
      return [400, { message: 'auto_return invalid. back_url.success must be defined', error: 'invalid_auto_return', status: 400 }];
    if (body.notification_url !== undefined && !/^https?:\/\//.test(body.notification_url))
      return [400, { message: 'notification_url invalid', error: 'invalid_notification_url', status: 400 }];
    if (body.external_reference !== undefined && String(body.external_reference).length > 256)
      return [400, { message: 'external_reference too long', error: 'bad_request', status: 400 }];
    if (body.payment_methods !== undefined) {
      const { installments, default_installments } = body.payment_methods;
      const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 36;
      if (installments !== undefined && !count(installments))
        return [400, { message: 'payment_methods.installments invalid', error: 'invalid_payment_methods', status: 400 }];
      if (
        default_installments !== undefined &&
        (!count(default_installments) || (installments !== undefined && (default_installments as number) > (installments as number)))
      )
        return [400, { message: 'payment_methods.default_installments invalid', error: 'invalid_payment_methods', status: 400 }];
    }
    const id = `${this.accounts.get(token)!.userId}-${crypto.randomUUID()}`;
    const initPoint = `${this.url}/checkout/v1/redirect?pref_id=${id}`;
    this.preferences.set(id, { id, token, body, initPoint });
    return [
      201,
      { id, init_point: initPoint, sandbox_init_point: initPoint, external_reference: body.external_reference ?? '', items: body.items },
    ];
  }

  private refund(
    token: string,
    paymentId: number,
    body: { amount?: unknown },
    source = { id: String(this.accounts.get(token)?.userId ?? ''), name: 'api', type: 'collector' },
  ): [number, unknown] {
    const payment = this.payments.get(paymentId);
    if (!payment || payment.token !== token) return [404, { message: 'Payment not found', error: 'not_found', status: 404 }];
    if (payment.status !== 'approved') return [400, { message: 'Payment not refundable', error: 'bad_request', status: 400 }];
    const decimals = DECIMALS[payment.currency_id];
    const refunded = payment.refunds.filter((r) => r.status === 'approved').reduce((sum, r) => sum + r.amount, 0);
    const left = round(payment.transaction_amount - refunded, decimals);
    const amount = body.amount === undefined ? left : body.amount;
    if (typeof amount !== 'number' || !(amount > 0) || !hasDecimals(amount, decimals))
      return [400, { message: 'invalid amount', error: 'bad_request', status: 400 }];
    if (amount > left) return [400, { message: 'amount exceeds the refundable amount', error: 'bad_request', status: 400 }];
    const refund: StandInRefund = {
      id: this.nextRefund++,
      payment_id: paymentId,
      amount,
      status: this.refundStatus,
      date_created: new Date().toISOString(),
      source,
    };
    payment.refunds.push(refund);
    if (refund.status === 'approved') {
      payment.transaction_amount_refunded = round(refunded + amount, decimals);
      if (round(left - amount, decimals) === 0) {
        payment.status = 'refunded';
        payment.status_detail = 'refunded';
      } else payment.status_detail = 'partially_refunded';
    }
    return [201, refund];
  }

  /** POST /v1/account/release_report: begin_date and end_date required, UTC (`Z`), in order, at most 60 days. */
  private createReport(token: string, raw: string): [number, unknown] {
    let body: { begin_date?: unknown; end_date?: unknown };
    try {
      body = raw ? (JSON.parse(raw) as typeof body) : {};
    } catch {
      return [400, { message: 'invalid JSON', error: 'bad_request', status: 400 }];
    }
    const instant = (value: unknown) =>
      typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value) ? new Date(value) : null;
    const begin = instant(body.begin_date);
    const end = instant(body.end_date);
    if (!begin) return [400, { message: "You must specify 'begin_date' parameter.", error: 'invalid_begin_date', status: 400 }];
    if (!end) return [400, { message: "You must specify 'end_date' parameter.", error: 'invalid_end_date', status: 400 }];
    if (end <= begin) return [400, { message: 'Begin date should be before end date.', error: 'end_date_before_begin_date', status: 400 }];
    if (end.getTime() - begin.getTime() > 60 * 86_400_000)
      return [400, { message: 'The maximum period is 60 days.', error: 'invalid_range', status: 400 }];
    const account = this.accounts.get(token)!;
    const report = {
      id: this.nextReport++,
      token,
      begin,
      end,
      fileName: `release-report-${account.userId}-${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${this.nextReport}.csv`,
      readyAt: Date.now() + this.reportDelayMs,
      createdAt: new Date().toISOString(),
    };
    this.reports.push(report);
    return [202, this.reportEntry(report)];
  }

  private reportEntry(report: StandInReport): Record<string, unknown> {
    const ready = report.readyAt <= Date.now();
    return {
      id: report.id,
      account_id: this.accounts.get(report.token)!.userId,
      begin_date: `${report.begin.toISOString().slice(0, 19)}Z`,
      end_date: `${report.end.toISOString().slice(0, 19)}Z`,
      created_from: 'manual',
      ...(this.listsReportCurrency ? { currency_id: this.currencyOf(report.token) } : {}),
      generation_date: report.createdAt,
      status: ready ? 'processed' : 'pending',
      format: 'CSV',
      ...(ready ? { file_name: report.fileName } : {}),
    };
  }

  /**
   * What the account of `accessToken` holds from its payments, by currency, in minor units: the
   * oracle of contract §28. Each approved payment adds its amount less the financing fee the
   * seller pays for an interest-free plan, less its approved refunds, less what a chargeback
   * takes while its case is open or after it is lost (given back when covered) — at most what
   * the payer had not been refunded yet, since the payer's bank cannot take back money the payer
   * already got back. A claim (`in_mediation`) holds what was not refunded until Mercado Pago
   * decides. Mercado Pago's own fee (`mercadopago_fee`) is the collector's business cost, not
   * a merchant's money: it is left out.
   */
  heldFor(accessToken: string): Map<string, number> {
    const held = new Map<string, number>();
    for (const payment of this.payments.values()) {
      if (payment.token !== accessToken || !payment.date_approved) continue;
      const decimals = DECIMALS[payment.currency_id];
      const minor = (value: number) => Math.round(value * 10 ** decimals);
      const gross = minor(payment.transaction_amount);
      const financing = (payment.fee_details ?? []).filter((f) => f.type === 'financing_fee').reduce((sum, f) => sum + minor(f.amount), 0);
      const refunded = payment.refunds.filter((r) => r.status === 'approved').reduce((sum, r) => sum + minor(r.amount), 0);
      const left = Math.max(0, gross - refunded);
      const taken = this.chargebacksOf(payment.id)
        .filter((c) => c.coverage_applied !== true)
        .reduce((sum, c) => sum + minor(c.amount), 0);
      const mediation = payment.status === 'in_mediation' ? left : 0;
      held.set(
        payment.currency_id,
        (held.get(payment.currency_id) ?? 0) + gross - financing - refunded - Math.min(left, taken) - mediation,
      );
    }
    return held;
  }

  /** The account's currency (a Mercado Pago account is in its country's). */
  private currencyOf(token: string): string {
    return this.accounts.get(token)?.currency ?? [...this.payments.values()].find((p) => p.token === token)?.currency_id ?? 'ARS';
  }

  /**
   * `POST /v1/payments` with a card token (Checkout API, and saved cards): the amount in the account's currency with
   * its decimals, the token (single use; one made without the security code only with automatic payments), the
   * card's `payment_method_id`, `installments`, a payer (its e-mail, or a customer by id). The test card's holder
   * name decides the outcome; the payment is notified to its `notification_url` as Checkout Pro's are.
   */
  private cardPayment(token: string, body: Record<string, unknown>): [number, unknown] {
    const currency = this.currencyOf(token);
    const amount = body.transaction_amount;
    if (typeof amount !== 'number' || !(amount > 0) || !hasDecimals(amount, DECIMALS[currency]))
      return [
        400,
        {
          message: 'transaction_amount invalid',
          error: 'bad_request',
          status: 400,
          cause: [{ code: 4037, description: 'Invalid transaction_amount' }],
        },
      ];
    if (!Number.isInteger(body.installments) || (body.installments as number) < 1)
      return [
        400,
        {
          message: 'installments invalid',
          error: 'bad_request',
          status: 400,
          cause: [{ code: 4020, description: 'installments invalid' }],
        },
      ];
    const payer = body.payer as { type?: unknown; id?: unknown; email?: unknown } | undefined;
    if (!payer || (payer.type === 'customer' ? typeof payer.id !== 'string' : typeof payer.email !== 'string'))
      return [
        400,
        {
          message: 'payer.email must be a valid email',
          error: 'bad_request',
          status: 400,
          cause: [{ code: 4050, description: 'payer.email must be a valid email' }],
        },
      ];
    if (body.notification_url !== undefined && !(typeof body.notification_url === 'string' && /^https?:\/\//.test(body.notification_url)))
      return [
        400,
        {
          message: 'notification_url invalid',
          error: 'bad_request',
          status: 400,
          cause: [{ code: 4029, description: 'notification_url invalid' }],
        },
      ];
    const card = this.cards.takeToken(token, body.token, this.accounts.get(token)!.automaticPayments);
    if (Array.isArray(card)) return card;
    if (body.payment_method_id !== card.paymentMethodId)
      return [
        400,
        {
          message: 'payment_method_id does not match the card',
          error: 'bad_request',
          status: 400,
          cause: [{ code: 'diff_param_bins', description: 'diff_param_bins' }],
        },
      ];
    const decided = TEST_CARD_OUTCOMES[card.holderName] ?? TEST_CARD_OUTCOMES.OTHE;
    const installments = body.installments as number;
    const plan = this.planOf(amount, installments, DECIMALS[currency]);
    const payment: StandInPayment = {
      id: this.nextPayment++,
      status: decided.status,
      status_detail: decided.detail,
      external_reference: typeof body.external_reference === 'string' ? body.external_reference : null,
      transaction_amount: amount,
      currency_id: currency,
      date_created: new Date().toISOString(),
      payment_method_id: card.paymentMethodId,
      card: {
        first_six_digits: card.firstSix,
        last_four_digits: card.lastFour,
        expiration_month: card.expirationMonth,
        expiration_year: card.expirationYear,
      },
      installments,
      transaction_details: { total_paid_amount: plan.total, installment_amount: plan.installment, net_received_amount: 0 },
      fee_details: [],
      date_approved: null,
      money_release_date: null,
      transaction_amount_refunded: 0,
      refunds: [],
      token,
      notificationUrl: typeof body.notification_url === 'string' ? body.notification_url : null,
    };
    if (payment.status === 'approved') this.approved(payment);
    this.payments.set(payment.id, payment);
    void this.notify(payment);
    return [201, view(payment)];
  }

  /**
   * The report's file as Mercado Pago writes it (the columns of its
   * glossary): the initial balance; a `release` line per payment released in
   * the window (DESCRIPTION payment; MP_FEE_AMOUNT, FINANCING_FEE_AMOUNT and
   * TAXES_AMOUNT — the withholdings — negative; the net in NET_CREDIT_AMOUNT
   * or NET_DEBIT_AMOUNT), per refund (DESCRIPTION refund, GROSS_AMOUNT
   * negative) and per chargeback lost (DESCRIPTION chargeback); a `block`
   * line when a chargeback or a claim holds a payment's money and an
   * `unblock` line when it is given back (DESCRIPTION chargeback, or dispute
   * for a claim); and the total. SOURCE_ID is the payment's id throughout.
   */
  private reportCsv(report: StandInReport): string {
    const decimals = DECIMALS[this.currencyOf(report.token)] ?? 2;
    const money = (value: number) => round(value, decimals).toFixed(decimals);
    const lines = [
      'DATE,SOURCE_ID,EXTERNAL_REFERENCE,RECORD_TYPE,DESCRIPTION,NET_CREDIT_AMOUNT,NET_DEBIT_AMOUNT,GROSS_AMOUNT,MP_FEE_AMOUNT,' +
        'FINANCING_FEE_AMOUNT,TAXES_AMOUNT,PAYMENT_METHOD',
    ];
    lines.push(
      `${report.begin.toISOString()},,,initial_available_balance,,${money(0)},${money(0)},${money(0)},${money(0)},${money(0)},${money(0)},`,
    );
    let total = 0;
    const line = (
      date: string,
      payment: { id: number | string; external_reference: string | null; payment_method_id: string },
      recordType: string,
      description: string,
      amounts: { gross: number; fee?: number; financing?: number; taxes?: number; grossText?: string },
    ) => {
      const fee = amounts.fee ?? 0;
      const financing = amounts.financing ?? 0;
      const taxes = amounts.taxes ?? 0;
      const net = round(amounts.gross - fee - financing - taxes, decimals);
      total += net;
      lines.push(
        [
          date,
          String(payment.id),
          payment.external_reference ?? '',
          recordType,
          description,
          money(Math.max(net, 0)),
          money(Math.max(-net, 0)),
          amounts.grossText ?? money(amounts.gross),
          money(-fee),
          money(-financing),
          money(-taxes),
          payment.payment_method_id,
        ].join(','),
      );
    };
    const inWindow = (at: Date) => at >= report.begin && at <= report.end;
    for (const payment of [...this.payments.values()].filter((p) => p.token === report.token).sort((a, b) => a.id - b.id)) {
      const released = payment.money_release_date ? new Date(payment.money_release_date) : null;
      if (released && inWindow(released) && !this.reportEdits.omit.has(payment.id)) {
        const gross = this.reportEdits.gross.get(payment.id) ?? payment.transaction_amount;
        const charged = (type: string) => (payment.fee_details ?? []).filter((f) => f.type === type).reduce((sum, f) => sum + f.amount, 0);
        line(released.toISOString(), payment, 'release', 'payment', {
          gross,
          fee: this.reportEdits.fee.get(payment.id) ?? charged('mercadopago_fee'),
          financing: charged('financing_fee'),
          taxes: round(gross * this.withholdingRate, DECIMALS[payment.currency_id]),
          grossText: this.reportEdits.grossText.get(payment.id),
        });
      }
      for (const refund of payment.refunds.filter((r) => r.status === 'approved')) {
        const at = new Date(refund.date_created);
        if (inWindow(at)) line(at.toISOString(), payment, 'release', 'refund', { gross: -refund.amount });
      }
      for (const block of this.blocks.filter((b) => b.paymentId === payment.id && inWindow(new Date(b.at)))) {
        const claim = !this.chargebacksOf(payment.id).length;
        const amount = claim ? payment.transaction_amount : this.chargebacksOf(payment.id)[0].amount;
        if (block.kind === 'chargeback') line(block.at, payment, 'release', 'chargeback', { gross: -amount });
        else line(block.at, payment, block.kind, claim ? 'dispute' : 'chargeback', { gross: block.kind === 'block' ? -amount : amount });
      }
    }
    for (const extra of this.reportEdits.extra)
      line(
        report.begin.toISOString(),
        { id: extra.sourceId, external_reference: extra.externalReference, payment_method_id: 'visa' },
        extra.recordType ?? 'release',
        extra.description,
        { gross: extra.gross, fee: extra.fee },
      );
    lines.push(`${report.end.toISOString()},,,total,,${money(Math.max(total, 0))},${money(Math.max(-total, 0))},,,,,`);
    return lines.join('\n') + '\n';
  }

  private chargebacksOf(paymentId: number): StandInChargeback[] {
    return [...this.chargebacks.values()].filter((c) => c.payments.includes(paymentId));
  }

  /** POST /v1/chargebacks/:id/documentation: `files[]` of .jpg, .png or .pdf, 10 MB in all, before the deadline. */
  private document(token: string, id: string, contentType: string | undefined, body: Buffer): [number, unknown] {
    const chargeback = this.chargebacks.get(id);
    if (!chargeback || chargeback.token !== token) return [404, { message: 'chargeback not found', error: 'not_found', status: 404 }];
    const bad = (message: string): [number, unknown] => [400, { message, error: 'bad_request', status: 400 }];
    const parts = readMultipart(contentType, body);
    if (!parts) return bad('multipart/form-data expected');
    const files = parts.filter((part) => part.name === 'files[]' && part.fileName !== null);
    if (files.length === 0 || files.length !== parts.length) return bad('files[] expected');
    if (files.some((file) => !/\.(jpe?g|png|pdf)$/i.test(file.fileName!))) return bad('only .jpg, .png or .pdf files');
    if (files.reduce((sum, file) => sum + file.content.length, 0) > DOCUMENTATION_LIMIT) return bad('the files exceed 10mb');
    if (chargeback.coverage_applied !== null) return bad('the chargeback was already decided');
    if (chargeback.date_documentation_deadline && new Date(chargeback.date_documentation_deadline) < new Date())
      return bad('the documentation deadline has passed');
    for (const file of files)
      chargeback.documentation.push({
        type: file.contentType ?? 'application/octet-stream',
        url: `${this.url}/v1/chargebacks/${id}/documentation/${chargeback.documentation.length + 1}`,
        description: `File: ${file.fileName}, Size: ${file.content.length}`,
      });
    chargeback.documentation_status = 'review_pending';
    chargeback.date_last_updated = new Date().toISOString();
    return [200, chargebackView(chargeback)];
  }

  private get(token: string, url: URL): [number, unknown] {
    const chargeback = /^\/v1\/chargebacks\/(\d+)$/.exec(url.pathname);
    if (chargeback) {
      // Its id, or (as the reference documents for one who has not got it) the id of the payment it takes back.
      const found =
        this.chargebacks.get(chargeback[1]) ??
        [...this.chargebacks.values()].find((c) => c.payments.some((p) => String(p) === chargeback[1]));
      return found && found.token === token
        ? [200, chargebackView(found)]
        : [404, { message: 'chargeback not found', error: 'not_found', status: 404 }];
    }
    if (url.pathname === '/v1/account/release_report/list')
      return [200, this.reports.filter((r) => r.token === token).map((r) => this.reportEntry(r))];
    const owned = (payment: StandInPayment | undefined) => (payment && payment.token === token ? payment : undefined);
    if (url.pathname === '/v1/payments/search') {
      const reference = url.searchParams.get('external_reference');
      const results = [...this.payments.values()]
        .filter((p) => p.token === token && (reference === null || p.external_reference === reference))
        .sort((a, b) => b.id - a.id)
        .map(view);
      return [200, { paging: { total: results.length, limit: 30, offset: 0 }, results }];
    }
    if (url.pathname === '/v1/payment_methods/installments') return this.installments(url);
    if (url.pathname === '/v1/customers/search') return this.cards.searchCustomers(token, url.searchParams.get('email'));
    const refunds = /^\/v1\/payments\/(\d+)\/refunds$/.exec(url.pathname);
    if (refunds) {
      const payment = owned(this.payments.get(Number(refunds[1])));
      return payment ? [200, payment.refunds] : [404, { message: 'Payment not found', error: 'not_found', status: 404 }];
    }
    const one = /^\/v1\/payments\/(\d+)$/.exec(url.pathname);
    if (one) {
      const payment = owned(this.payments.get(Number(one[1])));
      return payment ? [200, view(payment)] : [404, { message: 'Payment not found', error: 'not_found', status: 404 }];
    }
    return [404, { message: 'resource not found', error: 'not_found', status: 404 }];
  }

  /**
   * GET /v1/payment_methods/installments as documented: `amount` required (a positive decimal), and a
   * card's `bin` (6 or 8 digits) or a `payment_method_id`; one entry per method with its `payer_costs`,
   * amounts in the currency's two decimals, Argentina's CFT and TEA in `labels`.
   */
  private installments(url: URL): [number, unknown] {
    const bad = (message: string): [number, unknown] => [400, { message, error: 'bad_request', status: 400, cause: [] }];
    const amountText = url.searchParams.get('amount');
    const amount = Number(amountText);
    if (amountText === null || !/^\d+(\.\d{1,2})?$/.test(amountText) || !(amount > 0))
      return bad('amount is required and must be positive');
    const bin = url.searchParams.get('bin');
    const methodId = url.searchParams.get('payment_method_id');
    if (bin === null && methodId === null) return bad('bin or payment_method_id is required');
    if (bin !== null && !/^\d{6}(\d{2})?$/.test(bin)) return bad('invalid bin');
    const method = bin !== null ? this.bins.find((b) => bin.startsWith(b.prefix))?.paymentMethodId : methodId;
    if (!method) return [200, []];
    const round = (value: number) => Math.round(value * 100) / 100;
    const payer_costs = Object.entries(this.installmentRates)
      .map(([count, rate]) => [Number(count), Number(count) <= this.interestFreeUpTo ? 0 : rate] as const)
      .sort(([a], [b]) => a - b)
      .map(([installments, installment_rate]) => {
        const total = round(amount * (1 + installment_rate / 100));
        const installment_amount = round(total / installments);
        const cft = installment_rate === 0 ? '0,00' : (installment_rate * 1.21).toFixed(2).replace('.', ',');
        return {
          installments,
          installment_rate,
          discount_rate: 0,
          reimbursement_rate: null,
          labels: [
            `CFT_${cft}%|TEA_${installment_rate.toFixed(2).replace('.', ',')}%`,
            ...(installments === 1 ? ['recommended_installment'] : []),
          ],
          installment_rate_collector: [installment_rate === 0 ? 'THIRD_PARTY' : 'MERCADOPAGO'],
          min_allowed_amount: 2,
          max_allowed_amount: 50_000_000,
          recommended_message: `${installments} ${installments === 1 ? 'cuota' : 'cuotas'} de $ ${installment_amount.toFixed(2)} ($ ${total.toFixed(2)})`,
          installment_amount,
          total_amount: total,
          payment_method_option_id: `opt-${installments}`,
        };
      });
    return [
      200,
      [
        {
          payment_method_id: method,
          payment_type_id: 'credit_card',
          thumbnail: `https://www.mercadopago.com/org-img/MP3/API/logos/${method}.gif`,
          processing_mode: 'aggregator',
          merchant_account_id: null,
          issuer: { id: '310', name: method === 'visa' ? 'Visa' : 'Mastercard' },
          payer_costs,
          agreements: null,
        },
      ],
    ];
  }

  /** Checkout Pro's page, reduced to what a test needs: the amount, and approve / reject / leave pending. */
  private async page(request: http.IncomingMessage, response: http.ServerResponse, url: URL, body: string): Promise<void> {
    const preference = this.preferences.get(url.searchParams.get('pref_id') ?? '');
    if (!preference) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Preference not found</h1>');
      return;
    }
    const item = preference.body.items[0];
    const most = (preference.body.payment_methods?.installments as number | undefined) ?? 1;
    if (request.method === 'POST') {
      const form = new URLSearchParams(body);
      const outcome = form.get('outcome');
      if (outcome !== 'approve' && outcome !== 'reject' && outcome !== 'pending') {
        response.writeHead(400).end('outcome?');
        return;
      }
      const installments = form.get('installments') === null ? undefined : Number(form.get('installments'));
      if (installments !== undefined && (!Number.isInteger(installments) || installments < 1 || installments > most)) {
        response.writeHead(400).end('installments?');
        return;
      }
      const payment = await this.decide(preference.id, outcome, installments);
      const back =
        outcome === 'approve'
          ? preference.body.back_urls?.success
          : outcome === 'reject'
            ? preference.body.back_urls?.failure
            : preference.body.back_urls?.pending;
      if (back) {
        // Mercado Pago appends the payment's data to the back URL.
        const target = new URL(back);
        target.searchParams.set('payment_id', String(payment.id));
        target.searchParams.set('status', payment.status);
        target.searchParams.set('external_reference', payment.external_reference ?? '');
        target.searchParams.set('preference_id', preference.id);
        response.writeHead(303, { location: target.toString() }).end();
      } else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<h1 id="result">${payment.status}</h1>`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Mercado Pago (stand-in)</title></head>
<body style="font-family:sans-serif;max-width:420px;margin:1rem auto;padding:0 1rem">
<h1>Mercado Pago</h1><p id="title">${escape(item.title)}</p><p id="amount">${item.currency_id} ${item.unit_price}</p>
<form method="post">${
      most > 1
        ? `<label for="installments">Cuotas</label><select id="installments" name="installments">${Object.keys(this.installmentRates)
            .map(Number)
            .filter((n) => n <= most)
            .map((n) => {
              const plan = this.planOf(item.unit_price * item.quantity, n, DECIMALS[item.currency_id]);
              const preselected = n === ((preference.body.payment_methods?.default_installments as number | undefined) ?? 1);
              return `<option value="${n}"${preselected ? ' selected' : ''}>${n} x ${item.currency_id} ${plan.installment} (${item.currency_id} ${plan.total})</option>`;
            })
            .join('')}</select>`
        : ''
    }<button name="outcome" value="approve" class="approve">Pagar</button>
<button name="outcome" value="reject" class="reject">Rechazar</button>
<button name="outcome" value="pending" class="pending">Dejar pendiente</button></form></body></html>`);
  }
}

function chargebackView(chargeback: StandInChargeback): Record<string, unknown> {
  const { token: _token, ...shown } = chargeback;
  return shown;
}

function view(payment: StandInPayment): Record<string, unknown> {
  const { token: _token, notificationUrl: _url, ...shown } = payment;
  return shown;
}

function hasDecimals(value: number, decimals: number): boolean {
  return Number.isFinite(value) && Math.abs(Math.round(value * 10 ** decimals) - value * 10 ** decimals) < 1e-6;
}

function round(value: number, decimals: number): number {
  return Math.round(value * 10 ** decimals) / 10 ** decimals;
}
