/*
 * Why one file: the requests this service makes to Mercado Pago's API and the shapes of their answers, read together
 * against its reference (one client, one signature of every request, one reading of its failures).
 */
import { readProcessorJson } from '@pcs/gateways';
import { metrics, processorCall } from '@pcs/observability';

/** Checkout Pro preference (POST /checkout/preferences), the fields this service sends. */
export interface PreferenceRequest {
  readonly items: readonly {
    readonly id: string;
    readonly title: string;
    readonly quantity: 1;
    readonly unit_price: number;
    readonly currency_id: string;
  }[];
  readonly external_reference: string;
  readonly back_urls: { readonly success: string; readonly pending: string; readonly failure: string };
  readonly auto_return: 'approved';
  readonly notification_url: string;
  readonly expires: true;
  readonly expiration_date_from: string;
  readonly expiration_date_to: string;
  /** The installments Checkout Pro offers (contract §25): the most, and the one preselected. */
  readonly payment_methods?: { readonly installments?: number; readonly default_installments?: number };
}

export interface Preference {
  readonly id: string;
  readonly init_point: string;
}

/** A payment as GET /v1/payments/:id answers it, the fields read here. */
export interface MercadoPagoPayment {
  readonly id: number;
  readonly status: string;
  readonly status_detail?: string | null;
  readonly external_reference?: string | null;
  readonly transaction_amount?: number;
  readonly currency_id?: string;
  readonly payment_method_id?: string | null;
  readonly payment_type_id?: string | null;
  /** The card paid with, as Mercado Pago's payment resource describes it. */
  readonly card?: {
    readonly first_six_digits?: string | null;
    readonly last_four_digits?: string | null;
    readonly expiration_month?: number | null;
    readonly expiration_year?: number | null;
  } | null;
  /** The installments the payer chose, and what they pay in all and each (`transaction_details`). */
  readonly installments?: number | null;
  readonly transaction_details?: { readonly total_paid_amount?: number | null; readonly installment_amount?: number | null } | null;
  readonly date_approved?: string | null;
  /** When Mercado Pago releases the money to the collector's available balance (contract §23). */
  readonly money_release_date?: string | null;
  /** Mercado Pago's charges on the payment; `fee_payer` collector: what the seller pays (mercadopago_fee, financing_fee, …). */
  readonly fee_details?: readonly { readonly type?: string; readonly amount?: number; readonly fee_payer?: string }[] | null;
  /** Every refund of the payment, ours and those made at Mercado Pago (its panel, its API by someone else). */
  readonly refunds?: readonly MercadoPagoRefund[] | null;
}

/**
 * A card's installment offer as `GET /v1/payment_methods/installments` answers it (one entry per
 * payment method and issuer), the fields read here: each plan (`payer_costs`) with the payer's
 * `installment_rate` (0: interest-free for the payer) and amounts in the currency's decimals.
 */
export interface MercadoPagoInstallments {
  readonly payment_method_id: string;
  readonly payment_type_id: string;
  readonly payer_costs: readonly {
    readonly installments: number;
    readonly installment_rate: number;
    readonly installment_amount: number;
    readonly total_amount: number;
    readonly labels?: readonly string[];
  }[];
}

/** A release report as Mercado Pago lists it (POST /v1/account/release_report, GET …/list). */
export interface ReleaseReportEntry {
  readonly id: number;
  readonly begin_date: string;
  readonly end_date: string;
  readonly file_name?: string | null;
  readonly status?: string | null;
  readonly currency_id?: string | null;
  readonly created_from?: string;
}

export interface MercadoPagoRefund {
  readonly id: number;
  readonly payment_id: number;
  readonly amount: number;
  readonly status: string;
}

/** A chargeback as `GET /v1/chargebacks/:id` answers it (the API spells `coverage_elegible`). */
export interface MercadoPagoChargeback {
  readonly id: string;
  /** The payments the case takes back. */
  readonly payments?: readonly (number | string)[];
  readonly currency?: string;
  readonly amount?: number;
  readonly reason?: string;
  /** true: decided for the seller (money back); false: against; null or absent: not decided yet. */
  readonly coverage_applied?: boolean | null;
  readonly coverage_elegible?: boolean;
  readonly documentation_required?: boolean;
  /** pending, review_pending, valid, invalid, not_supplied, not_applicable. */
  readonly documentation_status?: string;
  readonly date_documentation_deadline?: string | null;
  readonly date_created?: string | null;
  readonly date_last_updated?: string | null;
  readonly live_mode?: boolean;
}

/** A customer (`POST /v1/customers`, `GET /v1/customers/search`), the fields read here. */
export interface MercadoPagoCustomer {
  readonly id: string;
  readonly email?: string | null;
}

/** A card saved for a customer (`POST /v1/customers/:id/cards`), the fields read here: never its number or code. */
export interface MercadoPagoCard {
  readonly id: string;
  readonly customer_id?: string | null;
  readonly first_six_digits?: string | null;
  readonly last_four_digits?: string | null;
  readonly expiration_month?: number | null;
  readonly expiration_year?: number | null;
  readonly payment_method?: { readonly id?: string | null; readonly payment_type_id?: string | null } | null;
}

/** A card token (`POST /v1/card_tokens`): single use, it stands for the card in one payment. */
export interface MercadoPagoCardToken {
  readonly id: string;
}

/** A payment with a card token (`POST /v1/payments`), the fields this service sends for a saved card. */
export interface CardPaymentRequest {
  readonly transaction_amount: number;
  readonly token: string;
  readonly installments: 1;
  readonly payment_method_id: string;
  readonly payer: { readonly type: 'customer'; readonly id: string };
  readonly external_reference: string;
  readonly notification_url: string;
  readonly description: string;
  readonly binary_mode: true;
}

/** A file for a chargeback's documentation. */
export interface ChargebackDocument {
  readonly fileName: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/**
 * A failed request to Mercado Pago. `status` is the HTTP status, or null when
 * no answer came (timeout, connection refused): then the request may or may
 * not have been applied, and only asking again (with the same idempotency
 * key) or looking it up tells.
 */
export class MercadoPagoRequestError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number | null,
    detail: string,
  ) {
    super(`Mercado Pago ${operation}: ${detail}`);
    this.name = 'MercadoPagoRequestError';
  }

  /** No answer, or Mercado Pago's own failure: the outcome is unknown, not a refusal. */
  get unknownOutcome(): boolean {
    return this.status === null || this.status >= 500 || this.status === 429;
  }
}

/**
 * A small typed client of Mercado Pago's REST API over fetch (why not the
 * official SDK: docs/processors.md, "Mercado Pago"). Every request carries
 * `Authorization: Bearer <access token>`; every POST an `X-Idempotency-Key`
 * that is our own id for the operation, so a retry after a timeout or a crash
 * never creates a second preference or refund. Each request is bounded by
 * `timeoutMs`, and none is retried here: the callers' reconciliation asks
 * again. The token is never put in an error or a log line.
 */
export class MercadoPagoClient {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly accessToken: string,
  ) {}

  createPreference(body: PreferenceRequest, idempotencyKey: string): Promise<Preference> {
    return this.request('create_preference', 'POST', '/checkout/preferences', body, idempotencyKey);
  }

  /** The customer with that e-mail, if Mercado Pago has one for the account. */
  async findCustomer(email: string): Promise<MercadoPagoCustomer | null> {
    const query = new URLSearchParams({ email });
    const answer = await this.request<{ results?: MercadoPagoCustomer[] }>(
      'search_customers',
      'GET',
      `/v1/customers/search?${query.toString()}`,
    );
    return answer.results?.[0] ?? null;
  }

  createCustomer(email: string, idempotencyKey: string): Promise<MercadoPagoCustomer> {
    return this.request('create_customer', 'POST', '/v1/customers', { email }, idempotencyKey);
  }

  /** Saves the card a token stands for (made by its fields in the payer's browser) for the customer. */
  saveCard(customerId: string, token: string, idempotencyKey: string): Promise<MercadoPagoCard> {
    return this.request('save_card', 'POST', `/v1/customers/${encodeURIComponent(customerId)}/cards`, { token }, idempotencyKey);
  }

  /** A token for a saved card, made by the server without its security code (an account with automatic payments). */
  cardToken(cardId: string, customerId: string, idempotencyKey: string): Promise<MercadoPagoCardToken> {
    return this.request('create_card_token', 'POST', '/v1/card_tokens', { card_id: cardId, customer_id: customerId }, idempotencyKey);
  }

  /** A payment with a card token; the idempotency key is our id for the attempt (a retry gets the same payment). */
  createPayment(body: CardPaymentRequest, idempotencyKey: string): Promise<MercadoPagoPayment> {
    return this.request('create_payment', 'POST', '/v1/payments', body, idempotencyKey);
  }

  /** The plans for an amount (a decimal) and a card's BIN, or a payment method without one. */
  installments(amount: number, card: { bin: string } | { paymentMethodId: string }): Promise<MercadoPagoInstallments[]> {
    const query = new URLSearchParams({
      amount: String(amount),
      ...('bin' in card ? { bin: card.bin } : { payment_method_id: card.paymentMethodId }),
    });
    return this.request('installments', 'GET', `/v1/payment_methods/installments?${query.toString()}`);
  }

  getPayment(paymentId: string): Promise<MercadoPagoPayment> {
    return this.request('get_payment', 'GET', `/v1/payments/${encodeURIComponent(paymentId)}`);
  }

  async searchPayments(externalReference: string): Promise<MercadoPagoPayment[]> {
    const query = new URLSearchParams({ external_reference: externalReference, sort: 'date_created', criteria: 'desc' });
    const answer = await this.request<{ results?: MercadoPagoPayment[] }>(
      'search_payments',
      'GET',
      `/v1/payments/search?${query.toString()}`,
    );
    return answer.results ?? [];
  }

  /** A refund of `amount` (a decimal in the payment's currency): always named (contract §28), never "the rest". */
  refund(paymentId: number, amount: number, idempotencyKey: string): Promise<MercadoPagoRefund> {
    return this.request('refund', 'POST', `/v1/payments/${paymentId}/refunds`, { amount }, idempotencyKey);
  }

  listRefunds(paymentId: number): Promise<MercadoPagoRefund[]> {
    return this.request('list_refunds', 'GET', `/v1/payments/${paymentId}/refunds`);
  }

  getChargeback(chargebackId: string): Promise<MercadoPagoChargeback> {
    return this.request('get_chargeback', 'GET', `/v1/chargebacks/${encodeURIComponent(chargebackId)}`);
  }

  /**
   * The seller's documentation of a chargeback: `files[]` parts (jpg, png or
   * pdf, 10 MB in all), as Mercado Pago documents the upload; it answers 200
   * and the case's documentation_status becomes review_pending. No
   * idempotency key: sending the files again only adds documents.
   */
  uploadChargebackDocumentation(chargebackId: string, files: readonly ChargebackDocument[]): Promise<unknown> {
    const form = new FormData();
    for (const file of files) form.append('files[]', new Blob([file.content], { type: file.contentType }), file.fileName);
    return this.request(
      'upload_chargeback_documentation',
      'POST',
      `/v1/chargebacks/${encodeURIComponent(chargebackId)}/documentation`,
      form,
    );
  }

  /** Asks for a release report of [begin, end] (UTC, `…Z`); Mercado Pago prepares it and lists it when ready. No idempotency key: it is no payment. */
  createReleaseReport(beginDate: string, endDate: string): Promise<ReleaseReportEntry> {
    return this.request('create_release_report', 'POST', '/v1/account/release_report', { begin_date: beginDate, end_date: endDate });
  }

  listReleaseReports(): Promise<ReleaseReportEntry[]> {
    return this.request('list_release_reports', 'GET', '/v1/account/release_report/list');
  }

  /** A report's file (CSV). */
  downloadReleaseReport(fileName: string): Promise<string> {
    return this.request(
      'download_release_report',
      'GET',
      `/v1/account/release_report/${encodeURIComponent(fileName)}`,
      undefined,
      undefined,
      'text',
    );
  }

  /** One call, in a span of its own whose `traceparent` the request carries (docs/operations.md, "Tracing"). */
  private request<T>(
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    idempotencyKey?: string,
    as: 'json' | 'text' = 'json',
  ): Promise<T> {
    return processorCall('MERCADO_PAGO', operation, method, (trace) =>
      this.send<T>(operation, method, path, trace, body, idempotencyKey, as),
    );
  }

  private async send<T>(
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    trace: Record<string, string>,
    body: unknown,
    idempotencyKey: string | undefined,
    as: 'json' | 'text',
  ): Promise<T> {
    const started = process.hrtime.bigint();
    const observe = (outcome: string) =>
      metrics.gatewayRequests.observe({ provider: 'MERCADO_PAGO', operation, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
    const headers: Record<string, string> = {
      ...trace,
      authorization: `Bearer ${this.accessToken}`,
      accept: as === 'json' ? 'application/json' : 'text/csv',
    };
    // A form (multipart) sets its own content type, with its boundary.
    if (body !== undefined && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['x-idempotency-key'] = idempotencyKey;
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      observe(timedOut ? 'timeout' : 'unreachable');
      throw new MercadoPagoRequestError(operation, null, timedOut ? `no answer within ${this.timeoutMs / 1000} s` : 'unreachable');
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      observe(response.status >= 500 ? 'failed' : 'rejected');
      throw new MercadoPagoRequestError(operation, response.status, `answered ${response.status} ${describe(text)}`);
    }
    if (as === 'text') {
      observe('ok');
      return text as T;
    }
    try {
      // Amounts read from their decimal text (contract §28).
      const parsed = readProcessorJson<T>(text);
      observe('ok');
      return parsed;
    } catch {
      observe('failed');
      throw new MercadoPagoRequestError(operation, null, 'answered something that is not JSON');
    }
  }
}

/** Mercado Pago's error body says what was wrong (`message`, `error`); at most 200 characters of it. */
function describe(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const said = [body.error, body.message].filter((part) => typeof part === 'string').join(': ');
    return said ? `(${said.slice(0, 200)})` : '';
  } catch {
    return '';
  }
}
