/*
 * Why one file: one remote system (dLocal's API, its hosted page, notifications and lookups) over the state one
 * account holds; split, one simulated account's state would be spread over files.
 */
/**
 * A stand-in for dLocal's API, built from its public documentation and
 * strict where it is strict (the V2-HMAC-SHA256 signature, X-Date, X-Version,
 * amounts, statuses). Long because it is one outside system: payments, orders,
 * refunds, chargebacks and notifications share its state and must be read
 * together against the documentation.
 */
import * as crypto from 'node:crypto';
import * as http from 'node:http';
import { DLocalCards, dlocalSdk } from './dlocal-cards-stand-in';
import { DLocalPixAutomatico, DLocalStandInEnrollment } from './dlocal-pix-automatico-stand-in';
import { answerBrowser, escape, header, json, readBody, StandInServer } from './stand-in-server';

/**
 * A stand-in for dLocal's Payins API, for tests and for trying the flow by
 * hand (never in the production path). Written from dLocal's public API
 * reference (docs.dlocal.com: Security, Create a payment, Payments, Orders,
 * Refunds, Chargebacks, Configure callback URL, Receive notifications, the
 * country references), not from our adapter, and strict where it is:
 *
 * - every request carries `X-Date` (ISO 8601 UTC with milliseconds),
 *   `X-Login`, `X-Trans-Key`, `X-Version: 2.1`, a `User-Agent` and
 *   `Authorization: V2-HMAC-SHA256, Signature: <hex>`, the HMAC-SHA256 keyed
 *   with the secret key of `X-Login + X-Date + <body>` (nothing after the
 *   date for a GET); a POST carries `Content-Type: application/json`.
 *   Unknown credentials or a wrong signature: 403 `3001 Invalid Credentials`;
 *   another version: 400 `5017 Invalid API Version`;
 * - `POST /payments` takes the documented fields: `amount` (two decimals in
 *   UY, AR and BR), `currency` (the country's, or USD: `5004` otherwise),
 *   `country` (`5003` for one not covered here), `payment_method_flow`
 *   (REDIRECT here), `payment_method_id` of the country (`5010` otherwise),
 *   `payer` with `name`, `email` and a `document` of the country's format
 *   (UY: CI of 6–8 digits or RUT of 12; AR: DNI of 7–9 or CUIT/CUIL of 11;
 *   BR: CPF with its check digits or CNPJ), `order_id` (at most 125, and
 *   unique: `5009 Order id is duplicated`), `callback_url` (required for
 *   REDIRECT), `notification_url`, `description` (at most 200). Errors are
 *   `{ code, message, param? }` with the documented HTTP status;
 * - the answer's `redirect_url` is a page where a person pays, rejects or
 *   leaves the payment pending; a card payment's page offers the installments
 *   of an installments plan for the test card (BIN 411111, surcharges of
 *   `installmentSurcharges`), and the paid payment's `card` object tells the
 *   card (`brand`, `last4`) and, named as the card object of a request names
 *   them, the `installments` the payer chose and the plan's `installments_id`
 *   (where dLocal's documentation is silent on what a REDIRECT payment
 *   reports: never the payer's surcharge, which is between dLocal and the
 *   payer, the merchant receiving the full amount); dLocal then POSTs the payer's browser to the
 *   `callback_url` with `paymentId`, `status`, `date` and `signature`
 *   (`hmac(secretKey, X-Login + date + "{status:<status>,paymentId:<id>}")`);
 * - notifications are POSTed to the payment's (or refund's)
 *   `notification_url` with the object as body, signed like a request
 *   (`X-Date`, `X-Login`, `Authorization`), and sent again until answered
 *   2xx; `notifications` can delay, repeat, hold (to send later, in any
 *   order) or drop them;
 * - `GET /payments/:id` (with its `refunds`), `GET /payments/:id/status`,
 *   `GET /orders/:order_id` (no `redirect_url`), `POST /refunds`
 *   (`payment_id`, `amount`, `currency` required with an amount,
 *   `notification_url`; no idempotency key exists: a second request is a
 *   second refund), `GET /refunds/:id`, `GET /chargebacks/:id`;
 * - `faults` answer an HTTP status, hang, or do the work and answer late.
 */

interface Merchant {
  readonly xLogin: string;
  readonly xTransKey: string;
  readonly secretKey: string;
  /** The account's Smart Fields API key (its card fields in a browser), when the test gave one. */
  readonly smartFieldsKey: string | null;
}

export type DLocalPaymentStatus = 'PENDING' | 'PAID' | 'REJECTED' | 'CANCELLED' | 'EXPIRED' | 'AUTHORIZED' | 'VERIFIED';
export type DLocalRefundStatus = 'PENDING' | 'SUCCESS' | 'REJECTED' | 'CANCELLED';
export type DLocalChargebackStatus = 'PENDING' | 'DISPUTE_RECEIVED' | 'COMPLETED' | 'IN_DISPUTE' | 'DISPUTE_LOST' | 'REVERSAL' | 'INQUIRY';

/** dLocal's chargeback statuses, their codes and descriptions (its chargeback status reference). */
const CHARGEBACK_STATUS: Record<DLocalChargebackStatus, [number, string]> = {
  PENDING: [100, 'The chargeback is pending.'],
  DISPUTE_RECEIVED: [101, 'Dispute documentation received.'],
  COMPLETED: [200, 'The chargeback was executed.'],
  IN_DISPUTE: [201, 'Dispute documentation was sent to the acquirer.'],
  DISPUTE_LOST: [202, 'The chargeback dispute was lost.'],
  REVERSAL: [700, 'The chargeback dispute was won.'],
  INQUIRY: [800, 'Request for information received.'],
};

export interface DLocalStandInRefund {
  id: string;
  payment_id: string;
  order_id: string;
  amount: number;
  amount_refunded: number;
  currency: string;
  status: DLocalRefundStatus;
  status_code: string;
  status_detail: string;
  created_date: string;
  notification_url: string;
  description?: string;
}

export interface DLocalStandInPayment {
  id: string;
  amount: number;
  currency: string;
  country: string;
  payment_method_id: string;
  payment_method_type: string;
  payment_method_flow: 'REDIRECT' | 'DIRECT';
  payer: { name: string; email: string; document: string };
  order_id: string;
  description?: string;
  notification_url?: string;
  /** REDIRECT only: where the payer's browser comes back, and dLocal's page. */
  callback_url?: string;
  redirect_url?: string;
  created_date: string;
  approved_date?: string;
  status: DLocalPaymentStatus;
  status_code: string;
  status_detail: string;
  refunds: DLocalStandInRefund[];
  /** The card, once paid by card on the hosted page. */
  card?: {
    holder_name: string;
    expiration_month: number;
    expiration_year: number;
    brand: string;
    last4: string;
    installments: string;
    installments_id?: string;
    /** A saved card's id (a DIRECT payment with `card_id`). */
    card_id?: string;
  };
  readonly login: string;
}

export interface DLocalHeldNotification {
  readonly kind: 'payment' | 'refund' | 'chargeback' | 'enrollment';
  readonly id: string;
  send(): Promise<number>;
}

/** What the payer's browser posts to the `callback_url` after the hosted page. */
export interface DLocalCallback {
  readonly url: string;
  readonly fields: { paymentId: string; status: string; date: string; signature: string };
}

/** The countries covered here, their currency and the methods dLocal lists for them (payment_method_id → type). */
const COUNTRIES: Record<string, { currency: string; methods: Record<string, string>; document: (document: string) => boolean }> = {
  UY: {
    currency: 'UYU',
    methods: {
      CARD: 'CARD',
      VI: 'CARD',
      VD: 'CARD',
      MC: 'CARD',
      MD: 'CARD',
      DC: 'CARD',
      OA: 'CARD',
      LI: 'CARD',
      RE: 'TICKET',
      AI: 'TICKET',
    },
    // CI: 6 to 8 digits; RUT: 12.
    document: (d) => /^\d{6,8}$/.test(d) || /^\d{12}$/.test(d),
  },
  AR: {
    currency: 'ARS',
    methods: {
      CARD: 'CARD',
      VI: 'CARD',
      VD: 'CARD',
      MC: 'CARD',
      MD: 'CARD',
      AE: 'CARD',
      DC: 'CARD',
      NJ: 'CARD',
      CL: 'CARD',
      IO: 'BANK_TRANSFER',
      PF: 'TICKET',
      RP: 'TICKET',
    },
    // DNI: 7 to 9 digits; CUIT or CUIL: 11.
    document: (d) => /^\d{7,9}$/.test(d) || /^\d{11}$/.test(d),
  },
  BR: {
    currency: 'BRL',
    methods: {
      CARD: 'CARD',
      VI: 'CARD',
      MC: 'CARD',
      EL: 'CARD',
      AE: 'CARD',
      HI: 'CARD',
      PQ: 'TICKET',
      BL: 'TICKET',
      I: 'BANK_TRANSFER',
      B: 'BANK_TRANSFER',
      BB: 'BANK_TRANSFER',
      CA: 'BANK_TRANSFER',
      SB: 'BANK_TRANSFER',
    },
    // CPF (full validation) or CNPJ.
    document: (d) => (/^\d{11}$/.test(d) && validCpf(d)) || (/^\d{14}$/.test(d) && validCnpj(d)),
  },
};

const PAYMENT_STATUS: Record<DLocalPaymentStatus, [string, string]> = {
  PENDING: ['100', 'The payment is pending.'],
  PAID: ['200', 'The payment was paid.'],
  REJECTED: ['300', 'The payment was rejected.'],
  CANCELLED: ['400', 'The payment was cancelled.'],
  EXPIRED: ['500', 'The payment was expired.'],
  AUTHORIZED: ['600', 'The payment was authorized.'],
  VERIFIED: ['700', 'The payment was verified.'],
};

/** Some of dLocal's rejection codes with its descriptions (its payment status codes reference), for a card's bank's answers. */
const REJECTIONS: Record<string, string> = {
  '301': 'Rejected by bank.',
  '302': 'Insufficient amount.',
  '309': 'Card expired.',
  '310': 'Card reported lost.',
  '313': 'Card reported stolen.',
};

const REFUND_STATUS: Record<DLocalRefundStatus, [string, string]> = {
  PENDING: ['100', 'The refund is pending.'],
  SUCCESS: ['200', 'The refund was paid.'],
  REJECTED: ['300', 'The refund was rejected.'],
  CANCELLED: ['400', 'The refund was cancelled.'],
};

/** dLocal's error codes and their HTTP status. */
const ERRORS: Record<number, [number, string]> = {
  3001: [403, 'Invalid Credentials.'],
  4000: [404, 'Payment not found.'],
  5000: [400, 'Invalid request.'],
  5001: [400, 'Invalid parameter'],
  5002: [400, 'Invalid transaction status.'],
  5003: [400, 'Country not supported.'],
  5004: [400, 'Currency not allowed for this country.'],
  5007: [400, 'Amount exceeded.'],
  5009: [400, 'Order id is duplicated.'],
  5010: [400, 'Method not available.'],
  5013: [400, 'Unsupported operation.'],
  5017: [400, 'Invalid API Version.'],
  7000: [500, 'Failed to process the request.'],
};

type Answer = [number, unknown];

/** An installments plan as the stand-in made it (dLocal's Installment Plan object, in part). */
interface StandInInstallmentsPlan {
  readonly id: string;
  readonly installments: readonly { id: string; installments: number; installment_amount: number; total_amount: number }[];
}

function error(code: number, param?: string): Answer {
  const [status, message] = ERRORS[code];
  return [status, param ? { code, message: `${message}: ${param}`, param } : { code, message }];
}

export class DLocalStandIn extends StandInServer {
  private readonly merchants = new Map<string, Merchant>();
  readonly payments = new Map<string, DLocalStandInPayment>();
  private readonly refunds = new Map<string, DLocalStandInRefund & { login: string }>();
  private readonly chargebacks = new Map<
    string,
    Record<string, unknown> & { login: string; status: DLocalChargebackStatus; status_code: number; status_detail: string }
  >();
  /** Every request received (method, path, X-Login, W3C `traceparent` if any), for assertions. */
  readonly requests: { method: string; path: string; login: string | undefined; body: string; traceparent?: string }[] = [];
  /** How notifications are sent: at once (default), delayed, repeated, held for the test to send, or dropped. */
  notifications: { mode: 'send' | 'hold' | 'drop'; delayMs: number; repeat: number } = { mode: 'send', delayMs: 0, repeat: 1 };
  readonly held: DLocalHeldNotification[] = [];
  /**
   * Faults for the next requests to a path prefix: answer an HTTP status, `hang` (never answer, nothing done),
   * `late` (wait `lateMs`, then do the work and answer: the caller may be gone by then), or `lose` (do the work at
   * once, then cut the connection before the answer leaves).
   */
  readonly faults: { method: string; pathPrefix: string; answer: number | 'hang' | 'late' | 'lose'; times: number; lateMs?: number }[] = [];
  /** What the next refund answers at once: SUCCESS (default), PENDING (settled later), or REJECTED. */
  refundStatus: DLocalRefundStatus = 'SUCCESS';
  /** The surcharge the payer pays per number of installments (percent of the amount; 0: interest-free), as a plan answers. */
  installmentSurcharges: Record<number, number> = { 1: 0, 2: 10, 3: 15, 6: 28, 12: 55 };
  /** The plans created, by id (a payment names one with its installments_id). */
  readonly installmentPlans = new Map<
    string,
    { country: string; currency: string; amount: number; installments: { id: string; installments: number; total_amount: number }[] }
  >();

  /** The plan each card payment's page offered, by payment id. */
  private readonly pagePlans = new Map<string, StandInInstallmentsPlan>();

  /** A merchant's API credentials, as its dashboard shows them (Settings > Integration). */
  merchant(xLogin: string, xTransKey: string, secretKey: string, options: { smartFieldsKey?: string } = {}): this {
    this.merchants.set(xLogin, { xLogin, xTransKey, secretKey, smartFieldsKey: options.smartFieldsKey ?? null });
    return this;
  }

  /** Saved cards and Smart Fields' tokens (dlocal-cards-stand-in.ts). */
  readonly cards = new DLocalCards((key) => [...this.merchants.values()].find((m) => m.smartFieldsKey === key)?.xLogin);

  /** Pix Automático: enrollments, scheduled recurring payments and their retries (dlocal-pix-automatico-stand-in.ts). */
  readonly pix = new DLocalPixAutomatico(
    () => this.url,
    this.payments,
    (document) => COUNTRIES.BR.document(document),
    (payment) => this.notify(payment),
    (enrollment) => this.deliverEnrollment(enrollment),
  );

  private async deliverEnrollment(enrollment: DLocalStandInEnrollment): Promise<void> {
    if (!enrollment.notification_url) return;
    await this.deliver('enrollment', enrollment.id, enrollment.login, enrollment.notification_url, () => this.pix.view(enrollment));
  }

  /** The signature dLocal computes over a request or a notification. */
  static signature(secretKey: string, xLogin: string, xDate: string, body: string): string {
    return crypto.createHmac('sha256', secretKey).update(`${xLogin}${xDate}${body}`).digest('hex');
  }

  /** The headers a notification from dLocal carries for this body. */
  signedHeaders(xLogin: string, body: string, xDate = new Date().toISOString()): Record<string, string> {
    const merchant = this.merchants.get(xLogin)!;
    return {
      'content-type': 'application/json',
      'x-date': xDate,
      'x-login': xLogin,
      authorization: `V2-HMAC-SHA256, Signature: ${DLocalStandIn.signature(merchant.secretKey, xLogin, xDate, body)}`,
    };
  }

  /**
   * The payer's decision on the hosted page, as its buttons post it (a test may do it without a browser);
   * a card paid in `installments` of the page's plan (one payment when not given).
   */
  async decide(paymentId: string, outcome: 'pay' | 'reject' | 'pending', installments = 1): Promise<DLocalCallback> {
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`no payment ${paymentId}`);
    if (payment.status === 'PENDING' && outcome === 'pay' && payment.payment_method_type === 'CARD') {
      const plan = this.pagePlan(payment);
      if (!plan.installments.some((option) => option.installments === installments))
        throw new Error(`the plan offers no ${installments} installments`);
      payment.card = {
        holder_name: payment.payer.name,
        expiration_month: 10,
        expiration_year: 2040,
        brand: 'VI',
        last4: '1111',
        installments: String(installments),
        installments_id: plan.id,
      };
    }
    if (payment.status === 'PENDING' && outcome !== 'pending') this.setStatus(payment, outcome === 'pay' ? 'PAID' : 'REJECTED');
    await this.notify(payment);
    return this.callbackOf(payment);
  }

  /** A payment left pending is decided later (a cash voucher paid, a PIX confirmed, one that expired), and notified. */
  async settle(paymentId: string, status: DLocalPaymentStatus): Promise<void> {
    const payment = this.payments.get(paymentId)!;
    this.setStatus(payment, status);
    await this.notify(payment);
  }

  /**
   * A refund made in dLocal's dashboard (contract §23: not through our API),
   * of the whole rest when no amount is given: SUCCESS at once, listed on
   * the payment, and notified as a refund (its `payment_id` and
   * `amount_refunded`) to the payment's notification_url, since no request
   * of ours gave it one of its own.
   */
  async refundAtProcessor(paymentId: string, amount?: number): Promise<string> {
    const payment = this.payments.get(paymentId)!;
    const merchant = this.merchants.get(payment.login)!;
    if (!payment.notification_url) throw new Error(`payment ${paymentId} has no notification_url to tell of its refund`);
    const notificationUrl = payment.notification_url;
    const refundStatus = this.refundStatus;
    this.refundStatus = 'SUCCESS';
    try {
      const [status, answer] = this.createRefund(merchant, {
        payment_id: paymentId,
        ...(amount === undefined ? {} : { amount, currency: payment.currency }),
        notification_url: notificationUrl,
        description: 'dashboard refund',
      });
      if (status !== 200) throw new Error(`dLocal refused the refund: ${JSON.stringify(answer)}`);
      const refund = this.refunds.get((answer as { id: string }).id)!;
      await this.deliver('refund', refund.id, refund.login, notificationUrl, () => this.refundView(refund));
      return refund.id;
    } finally {
      this.refundStatus = refundStatus;
    }
  }

  /** A pending refund ends (dLocal sends it to the refund's notification_url). */
  async settleRefund(refundId: string, status: DLocalRefundStatus): Promise<void> {
    const refund = this.refunds.get(refundId)!;
    refund.status = status;
    [refund.status_code, refund.status_detail] = REFUND_STATUS[status];
    refund.amount_refunded = status === 'SUCCESS' ? refund.amount : 0;
    await this.deliver('refund', refund.id, refund.login, refund.notification_url, () => this.refundView(refund));
  }

  /**
   * A chargeback on a paid payment, notified to the chargeback URL the
   * merchant registered at dLocal (its documented fields: id, payment_id,
   * amount, currency, status, status_code, status_detail, created_date,
   * notification_url, order_id); `status` as dLocal's chargeback statuses.
   */
  async chargeback(paymentId: string, chargebackUrl: string, status: DLocalChargebackStatus = 'COMPLETED'): Promise<string> {
    const payment = this.payments.get(paymentId)!;
    const id = `CHAR${crypto.randomInt(10_000_000, 99_999_999)}`;
    const chargeback = {
      id,
      payment_id: payment.id,
      amount: payment.amount,
      currency: payment.currency,
      status,
      status_code: CHARGEBACK_STATUS[status][0],
      status_detail: CHARGEBACK_STATUS[status][1],
      created_date: new Date().toISOString(),
      notification_url: chargebackUrl,
      order_id: payment.order_id,
      login: payment.login,
    };
    this.chargebacks.set(id, chargeback);
    await this.deliverChargeback(id);
    return id;
  }

  /**
   * What the merchant `xLogin` holds at dLocal from its payments, by currency, in minor units: the
   * oracle of contract §28. Each PAID payment adds its amount (an installment plan's surcharge is
   * the payer's, paid to dLocal: the merchant receives the amount), less its refunds paid
   * (SUCCESS), less what an executed chargeback takes (COMPLETED, DISPUTE_RECEIVED, IN_DISPUTE or
   * DISPUTE_LOST; given back on REVERSAL or CANCELLED; nothing for a PENDING one or an INQUIRY), at
   * most what the payer had not been refunded yet.
   */
  heldFor(xLogin: string): Map<string, number> {
    const held = new Map<string, number>();
    const taking = new Set<DLocalChargebackStatus>(['COMPLETED', 'DISPUTE_RECEIVED', 'IN_DISPUTE', 'DISPUTE_LOST']);
    const minor = (value: number) => Math.round(value * 100);
    for (const payment of this.payments.values()) {
      if (payment.login !== xLogin || payment.status !== 'PAID') continue;
      const gross = minor(payment.amount);
      const refunded = payment.refunds.filter((r) => r.status === 'SUCCESS').reduce((sum, r) => sum + minor(r.amount), 0);
      const taken = [...this.chargebacks.values()]
        .filter((c) => c.payment_id === payment.id && taking.has(c.status))
        .reduce((sum, c) => sum + minor(Number(c.amount)), 0);
      held.set(payment.currency, (held.get(payment.currency) ?? 0) + gross - refunded - Math.min(Math.max(0, gross - refunded), taken));
    }
    return held;
  }

  /** A chargeback moves on (documentation received, in dispute, lost, reversed), notified again. */
  async chargebackStatus(id: string, status: DLocalChargebackStatus): Promise<void> {
    const chargeback = this.chargebacks.get(id)!;
    chargeback.status = status;
    [chargeback.status_code, chargeback.status_detail] = CHARGEBACK_STATUS[status];
    await this.deliverChargeback(id);
  }

  private async deliverChargeback(id: string): Promise<void> {
    const { login, ...shown } = this.chargebacks.get(id)!;
    await this.deliver('chargeback', id, login, String(shown.notification_url), () => ({ ...shown }));
  }

  /**
   * Ends every payment still open with a rejection, notified: a test leaves
   * no attempt waiting for a dLocal that is about to stop.
   */
  async rejectOpen(): Promise<void> {
    this.notifications = { mode: 'send', delayMs: 0, repeat: 1 };
    for (const payment of this.payments.values()) if (payment.status === 'PENDING') await this.settle(payment.id, 'REJECTED');
  }

  private setStatus(payment: DLocalStandInPayment, status: DLocalPaymentStatus): void {
    payment.status = status;
    [payment.status_code, payment.status_detail] = PAYMENT_STATUS[status];
    if (status === 'PAID') payment.approved_date = new Date().toISOString();
  }

  private callbackOf(payment: DLocalStandInPayment): DLocalCallback {
    const merchant = this.merchants.get(payment.login)!;
    const status = payment.status === 'PAID' ? 'APPROVED' : payment.status === 'PENDING' ? 'PENDING' : 'REJECTED';
    const date = new Date().toISOString();
    const signature = crypto
      .createHmac('sha256', merchant.secretKey)
      .update(`${merchant.xLogin}${date}{status:${status},paymentId:${payment.id}}`)
      .digest('hex');
    return { url: payment.callback_url ?? '', fields: { paymentId: payment.id, status, date, signature } };
  }

  private async notify(payment: DLocalStandInPayment): Promise<void> {
    if (!payment.notification_url) return;
    await this.deliver('payment', payment.id, payment.login, payment.notification_url, () => this.paymentView(payment));
  }

  private async deliver(
    kind: DLocalHeldNotification['kind'],
    id: string,
    login: string,
    target: string,
    body: () => unknown,
  ): Promise<void> {
    if (this.notifications.mode === 'drop') return;
    // The object as it is when the notification leaves (a held one tells what it told then).
    const raw = JSON.stringify(body());
    const send = async (): Promise<number> => {
      const response = await fetch(target, { method: 'POST', headers: this.signedHeaders(login, raw), body: raw }).catch(() => null);
      return response?.status ?? 0;
    };
    if (this.notifications.mode === 'hold') {
      this.held.push({ kind, id, send });
      return;
    }
    // As dLocal does, a notification not answered 2xx is sent again (here after a second, four times at most).
    const sendUntilTaken = async () => {
      for (let attempt = 0; attempt < 4; attempt++) {
        const status = await send();
        if (status >= 200 && status < 300) return;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    };
    const repeat = this.notifications.repeat;
    const all = async () => {
      for (let i = 0; i < repeat; i++) await sendUntilTaken();
    };
    if (this.notifications.delayMs > 0) setTimeout(() => void all(), this.notifications.delayMs);
    else await all();
  }

  protected override isPayerPage(path: string): boolean {
    return path.startsWith('/collect/pay/') || path.startsWith('/pix-automatico/');
  }

  protected async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const body = await readBody(request);
    // The payer's pages (public, like dLocal's hosted checkout).
    if (url.pathname.startsWith('/collect/pay/')) return this.page(request, response, url, body);
    if (url.pathname.startsWith('/pix-automatico/authorize/')) return this.pixJourney(request, response, url, body);
    // dLocal.js and its Smart Fields' tokens, from the payer's browser on another origin (CORS).
    if (request.method === 'GET' && url.pathname === '/js/') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(dlocalSdk(this.url));
      return;
    }
    if (url.pathname === '/smart-fields/tokens') {
      return answerBrowser(request, response, body, (fields) => this.cards.tokenFromBrowser(fields));
    }
    const login = header(request, 'x-login');
    const traceparent = header(request, 'traceparent');
    this.requests.push({ method: request.method ?? '', path: url.pathname, login, body, ...(traceparent ? { traceparent } : {}) });
    const fault = this.faults.find((f) => f.method === request.method && url.pathname.startsWith(f.pathPrefix) && f.times > 0);
    if (fault && fault.answer === 'late') {
      fault.times -= 1;
      await new Promise((resolve) => setTimeout(resolve, fault.lateMs ?? 1000));
    } else if (fault && fault.answer === 'lose') {
      // The work is done at once; the connection is cut before the answer leaves.
      fault.times -= 1;
      response.writeHead = () => response;
      response.end = () => {
        request.socket.destroy();
        return response;
      };
    } else if (fault) {
      fault.times -= 1;
      if (typeof fault.answer !== 'number') return; // hang: never answers, the client's timeout decides
      return json(response, fault.answer, { code: 7000, message: 'Failed to process the request.' });
    }
    const refused = this.authenticate(request, body);
    if (refused) return json(response, ...refused);
    const merchant = this.merchants.get(login!)!;
    if (request.method === 'POST') {
      if (!/^application\/json/i.test(header(request, 'content-type') ?? '')) return json(response, ...error(5000));
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return json(response, ...error(5000));
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return json(response, ...error(5000));
      const fields = parsed as Record<string, unknown>;
      if (url.pathname === '/payments' && fields.payment_method_id === 'XA')
        return json(
          response,
          ...this.pix.charge(merchant.xLogin, fields, (orderId) =>
            [...this.payments.values()].some((p) => p.login === merchant.xLogin && p.order_id === orderId),
          ),
        );
      const retry = /^\/payments\/([^/]+)\/retries$/.exec(url.pathname);
      if (retry) return json(response, ...this.pix.retry(merchant.xLogin, decodeURIComponent(retry[1]), fields));
      if (url.pathname === '/enrollments') return json(response, ...this.pix.createEnrollment(merchant.xLogin, fields));
      if (url.pathname === '/payments')
        return json(
          response,
          ...(fields.payment_method_flow === 'DIRECT' ? this.chargeCard(merchant, fields) : this.createPayment(merchant, fields)),
        );
      if (url.pathname === '/secure_cards')
        return json(
          response,
          ...this.cards.secureCard(merchant.xLogin, fields, (country, document) => COUNTRIES[country]?.document(document) ?? false),
        );
      if (url.pathname === '/refunds') return json(response, ...this.createRefund(merchant, fields));
      if (url.pathname === '/installments-plans') return json(response, ...this.createInstallmentsPlan(fields));
      return json(response, 404, { code: 5000, message: 'Invalid request.' });
    }
    const enrollment = /^\/enrollments\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && enrollment)
      return json(response, ...this.pix.readEnrollment(merchant.xLogin, decodeURIComponent(enrollment[1])));
    if (request.method === 'GET') return json(response, ...this.read(merchant, url.pathname));
    json(response, 405, { code: 5000, message: 'Invalid request.' });
  }

  /** The headers of dLocal's security page, and the signature over X-Login + X-Date + body. */
  private authenticate(request: http.IncomingMessage, body: string): Answer | null {
    const xDate = header(request, 'x-date') ?? '';
    const login = header(request, 'x-login') ?? '';
    const transKey = header(request, 'x-trans-key') ?? '';
    const merchant = this.merchants.get(login);
    if (!merchant || merchant.xTransKey !== transKey) return error(3001);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(xDate) || Number.isNaN(Date.parse(xDate))) return error(3001);
    if (header(request, 'x-version') !== '2.1') return error(5017);
    if (!header(request, 'user-agent')) return error(5000);
    const match = /^V2-HMAC-SHA256, Signature: ([0-9a-f]{64})$/.exec(header(request, 'authorization') ?? '');
    const expected = DLocalStandIn.signature(merchant.secretKey, login, xDate, request.method === 'GET' ? '' : body);
    if (!match || !crypto.timingSafeEqual(Buffer.from(match[1]), Buffer.from(expected))) return error(3001);
    return null;
  }

  /**
   * POST /installments-plans as dLocal documents it: `country`, `bin` (the card's first 6 or 8
   * digits), `amount` and `currency`, all required; the plan's options with the surcharge the payer
   * pays (`installmentSurcharges`, percent of the amount per count; 0: interest-free), rounded to two
   * decimals, each with its id for the payment's `installments_id`.
   */
  private createInstallmentsPlan(body: Record<string, unknown>): Answer {
    const { country, bin, amount, currency } = body;
    if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return error(5001, 'country');
    const covered = COUNTRIES[country];
    if (!covered) return error(5003);
    if (typeof bin !== 'string' || !/^\d{6}(\d{2})?$/.test(bin)) return error(5001, 'bin');
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return error(5001, 'currency');
    if (currency !== covered.currency && currency !== 'USD') return error(5004);
    if (typeof amount !== 'number' || !(amount > 0) || !twoDecimals(amount) || amount > 99_999_999.99) return error(5001, 'amount');
    const id = `INS${crypto.randomInt(10_000, 99_999)}`;
    const round = (value: number) => Math.round(value * 100) / 100;
    const installments = Object.entries(this.installmentSurcharges)
      .map(([count, surcharge]) => [Number(count), surcharge] as const)
      .sort(([a], [b]) => a - b)
      .map(([count, surcharge]) => {
        const total = round(amount * (1 + surcharge / 100));
        return { id: `${id}-${count}`, installment_amount: round(total / count), installments: count, total_amount: total };
      });
    this.installmentPlans.set(id, { country, currency, amount, installments });
    return [200, { id, country, bin, amount, currency, installments, installments_by_bank: false }];
  }

  /** The installments plan the hosted page offers for a card payment (made once, for the test card 411111). */
  private pagePlan(payment: DLocalStandInPayment): StandInInstallmentsPlan {
    const shown = this.pagePlans.get(payment.id);
    if (shown) return shown;
    const [, made] = this.createInstallmentsPlan({
      country: payment.country,
      bin: '411111',
      amount: payment.amount,
      currency: payment.currency,
    });
    const plan = made as {
      id: string;
      installments: { id: string; installments: number; installment_amount: number; total_amount: number }[];
    };
    this.pagePlans.set(payment.id, plan);
    return plan;
  }

  private createPayment(merchant: Merchant, body: Record<string, unknown>): Answer {
    const text = (value: unknown, max: number) => typeof value === 'string' && value.length > 0 && value.length <= max;
    const country = body.country;
    if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return error(5001, 'country');
    const covered = COUNTRIES[country];
    if (!covered) return error(5003);
    if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency)) return error(5001, 'currency');
    if (body.currency !== covered.currency && body.currency !== 'USD') return error(5004);
    if (typeof body.amount !== 'number' || !(body.amount > 0) || !twoDecimals(body.amount) || body.amount > 99_999_999.99)
      return error(5001, 'amount');
    if (body.payment_method_flow !== 'REDIRECT') {
      if (body.payment_method_flow === 'DIRECT') return error(5013);
      return error(5001, 'payment_method_flow');
    }
    const methodId = body.payment_method_id === undefined ? 'CARD' : body.payment_method_id;
    if (typeof methodId !== 'string' || !(methodId in covered.methods)) return error(5010);
    const payer = body.payer;
    if (typeof payer !== 'object' || payer === null || Array.isArray(payer)) return error(5001, 'payer');
    const { name, email, document } = payer as Record<string, unknown>;
    if (!text(name, 100)) return error(5001, 'payer.name');
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return error(5001, 'payer.email');
    if (typeof document !== 'string' || !covered.document(document)) return error(5001, 'payer.document');
    if (!text(body.order_id, 125)) return error(5001, 'order_id');
    if (body.description !== undefined && !text(body.description, 200)) return error(5001, 'description');
    if (body.notification_url !== undefined && !(text(body.notification_url, 200) && /^https?:\/\//.test(body.notification_url as string)))
      return error(5001, 'notification_url');
    if (!(text(body.callback_url, 200) && /^https?:\/\//.test(body.callback_url as string))) return error(5001, 'callback_url');
    if ([...this.payments.values()].some((p) => p.login === merchant.xLogin && p.order_id === body.order_id)) return error(5009);
    const id = `D-4-${crypto.randomUUID()}`;
    const payment: DLocalStandInPayment = {
      id,
      amount: body.amount,
      currency: body.currency,
      country,
      payment_method_id: methodId,
      payment_method_type: covered.methods[methodId],
      payment_method_flow: 'REDIRECT',
      payer: { name: name as string, email, document },
      order_id: body.order_id as string,
      ...(body.description === undefined ? {} : { description: body.description as string }),
      ...(body.notification_url === undefined ? {} : { notification_url: body.notification_url as string }),
      callback_url: body.callback_url as string,
      redirect_url: `${this.url}/collect/pay/${id}`,
      created_date: new Date().toISOString(),
      status: 'PENDING',
      status_code: PAYMENT_STATUS.PENDING[0],
      status_detail: PAYMENT_STATUS.PENDING[1],
      refunds: [],
      login: merchant.xLogin,
    };
    this.payments.set(id, payment);
    return [200, this.paymentView(payment)];
  }

  /**
   * `POST /payments` in the DIRECT flow with a saved card's `card_id` (its "Saving cards" guide): the documented fields
   * of a payment but `callback_url`, the card the account's; PAID or REJECTED at once, as the card's bank answers
   * (`cards.cards.get(id).answer`, a status code), and notified.
   */
  private chargeCard(merchant: Merchant, body: Record<string, unknown>): Answer {
    const text = (value: unknown, max: number) => typeof value === 'string' && value.length > 0 && value.length <= max;
    const country = body.country;
    if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return error(5001, 'country');
    const covered = COUNTRIES[country];
    if (!covered) return error(5003);
    if (typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency)) return error(5001, 'currency');
    if (body.currency !== covered.currency && body.currency !== 'USD') return error(5004);
    if (typeof body.amount !== 'number' || !(body.amount > 0) || !twoDecimals(body.amount) || body.amount > 99_999_999.99)
      return error(5001, 'amount');
    if (body.payment_method_id !== 'CARD') return error(5010);
    const card = this.cards.cardOf(merchant.xLogin, (body.card as Record<string, unknown> | undefined)?.card_id);
    if (!card) return error(5001, 'card.card_id');
    const payer = body.payer;
    if (typeof payer !== 'object' || payer === null || Array.isArray(payer)) return error(5001, 'payer');
    const { name, email, document } = payer as Record<string, unknown>;
    if (!text(name, 100)) return error(5001, 'payer.name');
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return error(5001, 'payer.email');
    if (typeof document !== 'string' || !covered.document(document)) return error(5001, 'payer.document');
    if (!text(body.order_id, 125)) return error(5001, 'order_id');
    if (body.notification_url !== undefined && !(text(body.notification_url, 200) && /^https?:\/\//.test(body.notification_url as string)))
      return error(5001, 'notification_url');
    if ([...this.payments.values()].some((p) => p.login === merchant.xLogin && p.order_id === body.order_id)) return error(5009);
    const paid = card.answer === '200';
    const payment: DLocalStandInPayment = {
      id: `D-4-${crypto.randomUUID()}`,
      amount: body.amount,
      currency: body.currency,
      country,
      payment_method_id: 'CARD',
      payment_method_type: 'CARD',
      payment_method_flow: 'DIRECT',
      payer: { name: name as string, email, document },
      order_id: body.order_id as string,
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      ...(body.notification_url === undefined ? {} : { notification_url: body.notification_url as string }),
      created_date: new Date().toISOString(),
      status: paid ? 'PAID' : 'REJECTED',
      status_code: paid ? PAYMENT_STATUS.PAID[0] : card.answer,
      status_detail: paid ? PAYMENT_STATUS.PAID[1] : (REJECTIONS[card.answer] ?? PAYMENT_STATUS.REJECTED[1]),
      ...(paid ? { approved_date: new Date().toISOString() } : {}),
      card: {
        holder_name: card.holderName,
        expiration_month: card.expirationMonth,
        expiration_year: card.expirationYear,
        brand: card.brand,
        last4: card.number.slice(-4),
        installments: '1',
        card_id: card.cardId,
      },
      refunds: [],
      login: merchant.xLogin,
    };
    this.payments.set(payment.id, payment);
    void this.notify(payment);
    return [200, this.paymentView(payment)];
  }

  private createRefund(merchant: Merchant, body: Record<string, unknown>): Answer {
    if (typeof body.payment_id !== 'string' || body.payment_id.length === 0) return error(5001, 'payment_id');
    const payment = this.payments.get(body.payment_id);
    if (!payment || payment.login !== merchant.xLogin) return error(4000);
    if (!(typeof body.notification_url === 'string' && /^https?:\/\//.test(body.notification_url) && body.notification_url.length <= 200))
      return error(5001, 'notification_url');
    if (payment.status !== 'PAID') return error(5002);
    const committed = payment.refunds.filter((r) => r.status === 'SUCCESS' || r.status === 'PENDING').reduce((sum, r) => sum + r.amount, 0);
    const left = round2(payment.amount - committed);
    let amount = left;
    if (body.amount !== undefined) {
      if (typeof body.amount !== 'number' || !(body.amount > 0) || !twoDecimals(body.amount)) return error(5001, 'amount');
      if (body.currency !== payment.currency) return error(5001, 'currency');
      amount = body.amount;
    }
    if (amount > left || left <= 0) return error(5007);
    const status = this.refundStatus;
    const refund = {
      id: `REF-${crypto.randomInt(100_000_000, 999_999_999)}`,
      payment_id: payment.id,
      order_id: payment.order_id,
      amount,
      amount_refunded: status === 'SUCCESS' ? amount : 0,
      currency: payment.currency,
      status,
      status_code: REFUND_STATUS[status][0],
      status_detail: REFUND_STATUS[status][1],
      created_date: new Date().toISOString(),
      notification_url: body.notification_url,
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      login: merchant.xLogin,
    };
    this.refunds.set(refund.id, refund);
    payment.refunds.push(refund);
    return [200, this.refundView(refund)];
  }

  private read(merchant: Merchant, path: string): Answer {
    const own = <T extends { login: string }>(item: T | undefined) => (item && item.login === merchant.xLogin ? item : undefined);
    const payment = /^\/payments\/([^/]+)(\/status)?$/.exec(path);
    if (payment) {
      const found = own(this.payments.get(decodeURIComponent(payment[1])));
      if (!found) return error(4000);
      if (payment[2])
        return [200, { id: found.id, status: found.status, status_detail: found.status_detail, status_code: found.status_code }];
      return [200, this.paymentView(found)];
    }
    const order = /^\/orders\/([^/]+)$/.exec(path);
    if (order) {
      const found = [...this.payments.values()].find((p) => p.login === merchant.xLogin && p.order_id === decodeURIComponent(order[1]));
      if (!found) return error(4000);
      return [
        200,
        {
          order_id: found.order_id,
          payment_id: found.id,
          amount: found.amount,
          currency: found.currency,
          created_date: found.created_date,
          ...(found.approved_date ? { approved_date: found.approved_date } : {}),
          status: found.status,
          status_code: found.status_code,
          status_detail: found.status_detail,
        },
      ];
    }
    const refund = /^\/refunds\/([^/]+)(\/status)?$/.exec(path);
    if (refund) {
      const found = own(this.refunds.get(decodeURIComponent(refund[1])));
      if (!found) return [404, { code: 4000, message: 'Refund not found.' }];
      if (refund[2])
        return [200, { id: found.id, status: found.status, status_code: found.status_code, status_detail: found.status_detail }];
      return [200, this.refundView(found)];
    }
    const chargeback = /^\/chargebacks\/([^/]+)$/.exec(path);
    if (chargeback) {
      const found = own(this.chargebacks.get(decodeURIComponent(chargeback[1])));
      if (!found) return [404, { code: 4000, message: 'Chargeback not found.' }];
      const { login: _login, ...shown } = found;
      return [200, shown];
    }
    return [404, { code: 5000, message: 'Invalid request.' }];
  }

  private paymentView(payment: DLocalStandInPayment): Record<string, unknown> {
    const { login: _login, refunds, ...shown } = payment;
    return { ...shown, refunds: refunds.map((refund) => this.refundView(refund)) };
  }

  private refundView(refund: DLocalStandInRefund): Record<string, unknown> {
    const { login: _login, ...shown } = refund as DLocalStandInRefund & { login?: string };
    return shown;
  }

  /** dLocal's Pix Automático journey (REDIRECT): the authorisation's QR code; the payer's decision, then back to the callback_url. */
  private async pixJourney(request: http.IncomingMessage, response: http.ServerResponse, url: URL, body: string): Promise<void> {
    const id = decodeURIComponent(url.pathname.slice('/pix-automatico/authorize/'.length));
    if (request.method === 'POST') {
      const decision = new URLSearchParams(body).get('decision');
      const next = decision === 'authorise' || decision === 'refuse' ? await this.pix.decide(id, decision === 'authorise') : null;
      if (!next) {
        response.writeHead(400).end('decision?');
        return;
      }
      response.writeHead(303, { location: next }).end();
      return;
    }
    const page = this.pix.page(id);
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(page ?? '<h1>Enrollment not found</h1>');
  }

  /** The hosted page: the amount, and pay / reject / leave pending; then the payer's browser is posted to the callback_url. */
  private async page(request: http.IncomingMessage, response: http.ServerResponse, url: URL, body: string): Promise<void> {
    const payment = this.payments.get(decodeURIComponent(url.pathname.slice('/collect/pay/'.length)));
    if (!payment) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Payment not found</h1>');
      return;
    }
    if (request.method === 'POST') {
      const form = new URLSearchParams(body);
      const outcome = form.get('outcome');
      if (outcome !== 'pay' && outcome !== 'reject' && outcome !== 'pending') {
        response.writeHead(400).end('outcome?');
        return;
      }
      const installments = Number(form.get('installments') ?? '1');
      const card = payment.payment_method_type === 'CARD';
      if (card && !this.pagePlan(payment).installments.some((option) => option.installments === installments)) {
        response.writeHead(400).end('installments?');
        return;
      }
      const callback = await this.decide(payment.id, outcome, card ? installments : 1);
      const inputs = Object.entries(callback.fields)
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${escape(value)}">`)
        .join('');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>dLocal</title></head>
<body onload="document.forms[0].submit()"><form method="post" action="${escape(callback.url)}">${inputs}
<noscript><button>Continue</button></noscript></form></body></html>`);
      return;
    }
    const pix = payment.payment_method_id === 'PQ';
    // A card is paid in one payment or in the installments of dLocal's plan for it, each with what the payer pays.
    const plans =
      payment.payment_method_type === 'CARD'
        ? `<fieldset id="installments"><legend>Parcelas</legend>${this.pagePlan(payment)
            .installments.map(
              (option) =>
                `<label><input type="radio" name="installments" value="${option.installments}"${option.installments === 1 ? ' checked' : ''}> ${option.installments} × ${payment.currency} ${option.installment_amount.toFixed(2)} (${payment.currency} ${option.total_amount.toFixed(2)})</label><br>`,
            )
            .join('')}</fieldset>`
        : '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="pt"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>dLocal (stand-in)</title></head>
<body style="font-family:sans-serif;max-width:420px;margin:1rem auto;padding:0 1rem">
<h1>dLocal</h1><p id="method">${escape(payment.payment_method_id)}</p><p id="amount">${payment.currency} ${payment.amount.toFixed(2)}</p>
${pix ? '<p id="pix">PIX: copia e cola <code>00020126stand-in</code></p>' : ''}
<form method="post">${plans}<button name="outcome" value="pay" class="pay">${pix ? 'Pagar com PIX' : 'Pay'}</button>
<button name="outcome" value="reject" class="reject">Reject</button>
<button name="outcome" value="pending" class="pending">Leave pending</button></form></body></html>`);
  }
}

function twoDecimals(value: number): boolean {
  return Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function validCpf(cpf: string): boolean {
  if (/^(\d)\1{10}$/.test(cpf)) return false;
  const digit = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(cpf[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return digit(9) === Number(cpf[9]) && digit(10) === Number(cpf[10]);
}

function validCnpj(cnpj: string): boolean {
  if (/^(\d)\1{13}$/.test(cnpj)) return false;
  const digit = (length: number) => {
    const weights = length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = weights.reduce((total, weight, i) => total + Number(cnpj[i]) * weight, 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return digit(12) === Number(cnpj[12]) && digit(13) === Number(cnpj[13]);
}
