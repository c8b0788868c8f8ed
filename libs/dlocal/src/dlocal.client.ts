/*
 * Why one file: the requests this service makes to dLocal's Payins API, their signature and the shapes of their
 * answers, read together against its reference.
 */
import { readProcessorJson } from '@pcs/gateways';
import { metrics, processorCall } from '@pcs/observability';
import * as crypto from 'node:crypto';

/** An account's API credentials (dLocal's dashboard, Settings > Integration). */
export interface DLocalCredentials {
  readonly xLogin: string;
  readonly xTransKey: string;
  readonly secretKey: string;
}

/** A payment as dLocal answers it (the fields this service reads). */
export interface DLocalPayment {
  readonly id: string;
  readonly amount: number;
  readonly currency: string;
  readonly country?: string;
  readonly payment_method_id?: string;
  readonly payment_method_type?: string;
  readonly status: string;
  /** A number or a string (contract §20). */
  readonly status_code?: string | number;
  readonly status_detail?: string;
  readonly order_id?: string;
  readonly redirect_url?: string;
  readonly notification_url?: string;
  /**
   * The card paid with; `installments` (a string, or a number) and `installments_id` as the card object of a
   * request names them, when the payer chose installments on dLocal's page.
   */
  readonly card?: {
    readonly last4?: string;
    readonly brand?: string;
    readonly installments?: string | number;
    readonly installments_id?: string;
  };
  readonly refunds?: readonly DLocalRefund[];
}

/** An order: the payment dLocal holds for one of our order ids (no redirect_url). */
export interface DLocalOrder {
  readonly order_id: string;
  readonly payment_id: string;
  readonly amount?: number;
  readonly currency?: string;
  readonly status: string;
  readonly status_code?: string | number;
  readonly status_detail?: string;
}

export interface DLocalRefund {
  readonly id: string;
  readonly payment_id?: string;
  readonly amount: number;
  readonly currency?: string;
  readonly status: string;
  readonly status_code?: string | number;
  readonly status_detail?: string;
  readonly notification_url?: string;
}

/** A chargeback as `GET /chargebacks/:id` answers it (and its notification carries). */
export interface DLocalChargeback {
  readonly id: string;
  readonly payment_id: string;
  readonly amount?: number;
  readonly currency?: string;
  /** PENDING, COMPLETED, DISPUTE_RECEIVED, IN_DISPUTE, DISPUTE_LOST, REVERSAL, INQUIRY (and CANCELLED in older references). */
  readonly status: string;
  readonly status_code?: number | string;
  readonly status_detail?: string;
  readonly created_date?: string;
  readonly order_id?: string;
}

export interface CreatePaymentRequest {
  readonly amount: number;
  readonly currency: string;
  readonly country: string;
  readonly payment_method_id: string;
  readonly payment_method_flow: 'REDIRECT';
  readonly payer: { readonly name: string; readonly email: string; readonly document: string };
  readonly order_id: string;
  readonly description?: string;
  readonly notification_url: string;
  readonly callback_url: string;
}

/** A card saved at dLocal (`POST /secure_cards`, contract §31): never its number or code; its last four, not its BIN. */
export interface DLocalSecureCard {
  readonly card_id: string;
  readonly holder_name?: string;
  readonly expiration_month?: number;
  readonly expiration_year?: number;
  readonly last4?: string;
  /** VI, MC, AE, … */
  readonly brand?: string;
}

/** A payment charging a saved card (`POST /payments`, DIRECT, with its `card_id`), the fields this service sends. */
export interface CardIdPaymentRequest {
  readonly amount: number;
  readonly currency: string;
  readonly country: string;
  readonly payment_method_id: 'CARD';
  readonly payment_method_flow: 'DIRECT';
  readonly payer: { readonly name: string; readonly email: string; readonly document: string };
  readonly card: { readonly card_id: string };
  readonly order_id: string;
  readonly description?: string;
  readonly notification_url: string;
}

/** A Pix Automático enrollment (`POST /enrollments`, `GET /enrollments/:id`), the fields this service reads. */
export interface DLocalEnrollment {
  readonly id: string;
  readonly external_id?: string;
  /** PENDING (awaiting the payer), ACTIVE, REJECTED, CANCELLED. */
  readonly status: string;
  readonly status_code?: string | number;
  readonly redirect_url?: string;
}

/** A Pix Automático enrollment asked for (its "Create enrollment" reference): a merchant's subscription of fixed amount. */
export interface CreateEnrollmentRequest {
  readonly external_id: string;
  readonly currency: 'BRL';
  readonly country: 'BR';
  readonly type: 'MERCHANT_SUBSCRIPTION';
  readonly description?: string;
  readonly payment_method_id: 'XA';
  readonly payment_method_flow: 'REDIRECT';
  readonly payer: { readonly name: string; readonly document: string; readonly email?: string };
  readonly subscription: {
    readonly start_date: string;
    readonly frequency: string;
    readonly amount: { readonly type: 'FIXED'; readonly value: number };
  };
  readonly notification_url: string;
  readonly callback_url: string;
}

/** A recurring payment of an enrollment (its "Recurring payments" guide): DIRECT, scheduled for the billing date. */
export interface PixAutomaticoPaymentRequest {
  readonly amount: number;
  readonly currency: 'BRL';
  readonly country: 'BR';
  readonly payment_method_id: 'XA';
  readonly payment_method_flow: 'DIRECT';
  readonly payer: { readonly name: string; readonly email: string; readonly document: string };
  readonly enrollment: { readonly id: string };
  readonly scheduled_date: string;
  readonly order_id: string;
  readonly description?: string;
  readonly notification_url: string;
}

export interface CreateRefundRequest {
  readonly payment_id: string;
  readonly amount: number;
  readonly currency: string;
  readonly notification_url: string;
  readonly description?: string;
}

/**
 * A failed request to dLocal: `status` the HTTP status (null when no answer
 * came: the request may or may not have been applied), `code` dLocal's error
 * code (5009 a duplicated order id, 4000 not found…).
 */
export class DLocalRequestError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number | null,
    readonly code: number | null,
    detail: string,
    /** False when the connection failed before the request left (refused, no route): dLocal never saw it. */
    readonly sent = true,
  ) {
    super(`dLocal ${operation}: ${detail}`);
    this.name = 'DLocalRequestError';
  }

  /** No answer, or dLocal's own failure: the outcome is unknown, not a refusal. */
  get unknownOutcome(): boolean {
    return this.status === null || this.status >= 500 || this.status === 429;
  }
}

/** An installments plan as `POST /installments-plans` answers it (dLocal's Installment Plan object). */
export interface DLocalInstallmentsPlan {
  readonly id: string;
  readonly country: string;
  readonly currency: string;
  readonly amount: number;
  readonly installments: readonly {
    readonly id: string;
    readonly installment_amount: number;
    readonly installments: number;
    readonly total_amount: number;
  }[];
  /** True: the issuer sets the interest, unknown beforehand. */
  readonly installments_by_bank?: boolean;
}

/**
 * A small typed client of dLocal's Payins API over fetch, signing every
 * request exactly as dLocal's Security page documents: `X-Date` (ISO 8601
 * UTC with milliseconds), `X-Login`, `X-Trans-Key`, `X-Version: 2.1`,
 * `Content-Type`, `User-Agent`, and `Authorization: V2-HMAC-SHA256,
 * Signature: <hex HMAC-SHA256, keyed with the secret key, of X-Login + X-Date
 * + the exact body sent>` (nothing after the date for a GET). Each request is
 * bounded by `timeoutMs` and never retried here (dLocal has no idempotency
 * key: the callers decide what a retry may do). No credential is put in an
 * error or a log line.
 */
export class DLocalClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly credentials: DLocalCredentials,
  ) {}

  createPayment(body: CreatePaymentRequest): Promise<DLocalPayment> {
    return this.request('create_payment', 'POST', '/payments', body);
  }

  /** Saves the card a Smart Fields token stands for (`POST /secure_cards`): the payer's name and document are required. */
  createSecureCard(body: {
    readonly country: string;
    readonly card: { readonly token: string };
    readonly payer: { readonly name: string; readonly document: string; readonly email?: string };
  }): Promise<DLocalSecureCard> {
    return this.request('create_secure_card', 'POST', '/secure_cards', body);
  }

  /** Charges a saved card (its `card_id`), DIRECT: no page; our attempt's id is the order id. */
  chargeCard(body: CardIdPaymentRequest): Promise<DLocalPayment> {
    return this.request('charge_card', 'POST', '/payments', body);
  }

  /** Opens a Pix Automático enrollment: PENDING, with dLocal's journey (`redirect_url`) where the payer authorises it. */
  createEnrollment(body: CreateEnrollmentRequest): Promise<DLocalEnrollment> {
    return this.request('create_enrollment', 'POST', '/enrollments', body);
  }

  getEnrollment(enrollmentId: string): Promise<DLocalEnrollment> {
    return this.request('get_enrollment', 'GET', `/enrollments/${encodeURIComponent(enrollmentId)}`);
  }

  /** A recurring payment of an active enrollment, scheduled 2 to 10 days ahead: PENDING until its date. */
  chargePixAutomatico(body: PixAutomaticoPaymentRequest): Promise<DLocalPayment> {
    return this.request('charge_pix_automatico', 'POST', '/payments', body);
  }

  /** A new attempt of a recurring payment whose attempt failed (its retry service): a new payment, attempted the next day. */
  retryPayment(paymentId: string, body: { readonly notification_url: string }): Promise<DLocalPayment> {
    return this.request('retry_payment', 'POST', `/payments/${encodeURIComponent(paymentId)}/retries`, body);
  }

  /** The installments plan for a card (its BIN) and an amount (a decimal) in a country (ISO alpha-2). */
  createInstallmentsPlan(body: { country: string; bin: string; amount: number; currency: string }): Promise<DLocalInstallmentsPlan> {
    return this.request('create_installments_plan', 'POST', '/installments-plans', body);
  }

  getPayment(paymentId: string): Promise<DLocalPayment> {
    return this.request('get_payment', 'GET', `/payments/${encodeURIComponent(paymentId)}`);
  }

  getOrder(orderId: string): Promise<DLocalOrder> {
    return this.request('get_order', 'GET', `/orders/${encodeURIComponent(orderId)}`);
  }

  createRefund(body: CreateRefundRequest): Promise<DLocalRefund> {
    return this.request('create_refund', 'POST', '/refunds', body);
  }

  getRefund(refundId: string): Promise<DLocalRefund> {
    return this.request('get_refund', 'GET', `/refunds/${encodeURIComponent(refundId)}`);
  }

  getChargeback(chargebackId: string): Promise<DLocalChargeback> {
    return this.request('get_chargeback', 'GET', `/chargebacks/${encodeURIComponent(chargebackId)}`);
  }

  /** One call, in a span of its own whose `traceparent` the request carries (docs/operations.md, "Tracing"). */
  private request<T>(operation: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return processorCall('DLOCAL', operation, method, (trace) => this.send<T>(operation, method, path, body, trace));
  }

  private async send<T>(operation: string, method: 'GET' | 'POST', path: string, body: unknown, trace: Record<string, string>): Promise<T> {
    const started = process.hrtime.bigint();
    const observe = (outcome: string) =>
      metrics.gatewayRequests.observe({ provider: 'DLOCAL', operation, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    const raw = body === undefined ? '' : JSON.stringify(body);
    const xDate = new Date().toISOString();
    const { xLogin, xTransKey, secretKey } = this.credentials;
    const signature = crypto.createHmac('sha256', secretKey).update(`${xLogin}${xDate}${raw}`).digest('hex');
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...trace,
          'x-date': xDate,
          'x-login': xLogin,
          'x-trans-key': xTransKey,
          'x-version': '2.1',
          'content-type': 'application/json',
          'user-agent': 'payment-collection-service/1.0',
          accept: 'application/json',
          authorization: `V2-HMAC-SHA256, Signature: ${signature}`,
        },
        body: body === undefined ? undefined : raw,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      observe(timedOut ? 'timeout' : 'unreachable');
      const cause = (error as { cause?: { code?: unknown } }).cause?.code;
      const notSent = !timedOut && typeof cause === 'string' && NOT_SENT.has(cause);
      throw new DLocalRequestError(
        operation,
        null,
        null,
        timedOut ? `no answer within ${this.timeoutMs / 1000} s` : notSent ? `unreachable (${cause})` : 'unreachable',
        !notSent,
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch {
      observe('timeout');
      throw new DLocalRequestError(operation, null, null, 'the answer was cut off');
    }
    if (!response.ok) {
      observe(response.status >= 500 ? 'failed' : 'rejected');
      const said = errorOf(text);
      throw new DLocalRequestError(operation, response.status, said.code, `answered ${response.status}${said.text}`);
    }
    try {
      // Amounts read from their decimal text (contract §28).
      const parsed = readProcessorJson<T>(text);
      observe('ok');
      return parsed;
    } catch {
      observe('failed');
      throw new DLocalRequestError(operation, null, null, 'answered something that is not JSON');
    }
  }
}

/** Connection errors that happen before a request leaves: dLocal never saw it. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** dLocal's error body: `{ code, message, param? }`; at most 200 characters of it. */
function errorOf(text: string): { code: number | null; text: string } {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    const code =
      typeof body.code === 'number' ? body.code : typeof body.code === 'string' && /^\d+$/.test(body.code) ? Number(body.code) : null;
    const message = typeof body.message === 'string' ? body.message.slice(0, 200) : '';
    return { code, text: code !== null || message ? ` (${[code, message].filter((p) => p !== null && p !== '').join(' ')})` : '' };
  } catch {
    return { code: null, text: '' };
  }
}

/** Whether `authorization` is dLocal's signature of `X-Login + X-Date + body` with this secret key (notifications). */
export function verifyDLocalSignature(secretKey: string, xLogin: string, xDate: string, body: Buffer, authorization: string): boolean {
  const match = /^V2-HMAC-SHA256,\s*Signature:\s*([0-9a-fA-F]{64})$/.exec(authorization.trim());
  if (!match) return false;
  const expected = crypto
    .createHmac('sha256', secretKey)
    .update(Buffer.concat([Buffer.from(`${xLogin}${xDate}`, 'utf8'), body]))
    .digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * Whether a callback's `signature` is dLocal's (Configure callback URL):
 * `hmac256(secretKey, X-Login + date + "{status:<status>,paymentId:<paymentId>}")`.
 */
export function verifyDLocalCallback(
  secretKey: string,
  xLogin: string,
  fields: { paymentId: string; status: string; date: string; signature: string },
): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(fields.signature)) return false;
  const expected = crypto
    .createHmac('sha256', secretKey)
    .update(`${xLogin}${fields.date}{status:${fields.status},paymentId:${fields.paymentId}}`)
    .digest();
  const given = Buffer.from(fields.signature, 'hex');
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
