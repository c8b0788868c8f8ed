/*
 * Why one file: every call the dashboard makes to the payins API, one typed method each over the generated
 * client: the dashboard's whole use of the API (contract §18) read in one place.
 */
/**
 * The dashboard's only way to payments: the payins API through the typed
 * client (contract §18), one method per question a page asks, each signed
 * with the dashboard's credentials and narrowed to the person's merchant.
 * Long because it is the whole of that boundary, and reviewing it whole is
 * how one checks that no page reaches past it.
 */
import { createPayinsClient, EvidenceFile, PayinsClient, PayinsComponents, PayinsPaths, uploadDisputeEvidence } from '@pcs/client';
import type { DashboardUser } from '@pcs/dashboard-identity';
import { DashboardSettings } from './settings';

export type PaymentIntent = PayinsComponents['schemas']['PaymentIntentResponse'];
export type Payin = PayinsComponents['schemas']['PayinResponse'];
export type Merchant = PayinsComponents['schemas']['MerchantResponse'];
export type PayinFilters = NonNullable<PayinsPaths['/payin']['get']['parameters']['query']>;
export type EventWithDeliveries = PayinsComponents['schemas']['EventWithDeliveriesResponse'];
export type PayinSummary = PayinsComponents['schemas']['PayinSummaryResponse'];
export type Link = PayinsComponents['schemas']['LinkResponse'];
export type Payer = PayinsComponents['schemas']['PayerResponse'];
export type WebhookEndpoint = PayinsComponents['schemas']['WebhookEndpointResponse'];
export type EventSummary = PayinsComponents['schemas']['EventResponse'];
export type MerchantCountryProcessor = PayinsComponents['schemas']['MerchantCountryProcessorResponse'];
export type MerchantConfiguration = PayinsComponents['schemas']['MerchantConfigurationResponse'];
/** A merchant's installments per country, as the configuration takes it (contract §25). */
export type InstallmentPolicy = PayinsComponents['schemas']['InstallmentsDto'];
export type CreateLink = PayinsComponents['schemas']['CreateLinkDto'];
/** A merchant's routing rules, as the configuration takes them (contract §26). */
export type RoutingRule = PayinsComponents['schemas']['RoutingRuleDto'];
/** A processor account's circuit and success rates (contract §26). */
export type ProcessorHealth = PayinsComponents['schemas']['ProcessorHealthResponse'];
export type CardTestingBlocks = PayinsComponents['schemas']['CardTestingBlocksResponse'];
export type Balance = PayinsComponents['schemas']['BalanceResponse'];
export type BalanceTransaction = PayinsComponents['schemas']['BalanceTransactionResponse'];
export type Payout = PayinsComponents['schemas']['PayoutResponse'];
export type ReconciliationRun = PayinsComponents['schemas']['ReconciliationRunResponse'];
export type Dispute = PayinsComponents['schemas']['DisputeResponse'];
export type Credential = PayinsComponents['schemas']['CredentialResponse'];
export type DisputeFilters = NonNullable<PayinsPaths['/dispute']['get']['parameters']['query']>;
export type Subscription = PayinsComponents['schemas']['SubscriptionResponse'];
export type Invoice = PayinsComponents['schemas']['InvoiceResponse'];
export type SubscriptionFilters = NonNullable<PayinsPaths['/subscription']['get']['parameters']['query']>;
export type PayoutFilters = NonNullable<PayinsPaths['/payout']['get']['parameters']['query']>;
export type SettlementAccount = PayinsComponents['schemas']['SettlementAccountResponse'];
/** A merchant's time zone and its country's currency. */
export interface MerchantLocale {
  readonly timeZone: string;
  readonly currency: string;
}
type ErrorBody = { errorId?: string; showMessage?: { EN: string; ES: string } };

/** A refusal or failure of the payins API, with its error body (errorId and both texts) when it gave one. */
export class PayinsApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody | undefined,
  ) {
    super(`the payins API answered ${status}${body?.errorId ? ` ${body.errorId}` : ''}`);
  }
}

/** A list that may answer CSV (to another Accept) read as the JSON the dashboard asks for. */
function jsonOf<T>(data: T | string): T {
  if (typeof data === 'string') throw new PayinsApiError(502, undefined);
  return data;
}

/** The bound on each request to the payins API. */
export const PAYINS_TIMEOUT_MS = 10_000;

/** What the dashboard prefers of every answer (the payins API's `Prefer: secrets=omit`). */
const OMIT_SECRETS = 'secrets=omit';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The dashboard's only way to payments: the payins API over HTTP, with the
 * typed client, signed (version 3, contract §29) with the business's credential, every
 * answer without secrets (`Prefer: secrets=omit`). A
 * merchant-scoped person's requests carry their merchant, and whatever belongs
 * to another merchant is "not found", exactly as the API answers another
 * tenant.
 */
export class PayinsApi {
  private readonly client: PayinsClient;
  private readonly locales = new Map<string, { locale: MerchantLocale | null; until: number }>();

  constructor(settings: DashboardSettings) {
    const send = settings.fetch ?? fetch;
    const timeoutMs = settings.payinsTimeoutMs ?? PAYINS_TIMEOUT_MS;
    this.client = createPayinsClient({
      baseUrl: settings.payinsApiUrl,
      apiKey: settings.apiKey,
      apiSecret: settings.apiSecret,
      // Bounded: a payins API that does not answer is a 503 page after this, never a page that hangs. Every request
      // asks to be answered without secrets (contract §27): the dashboard never holds a merchant's apiSecret.
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.set('prefer', OMIT_SECRETS);
        return send(request, { signal: AbortSignal.timeout(timeoutMs) });
      },
    });
  }

  /** The business of the dashboard's credential: the only one whose people may sign in. */
  async businessId(): Promise<string | null> {
    const { data } = await this.client.GET('/merchant', { params: { query: { limit: 1 } } });
    return data?.[0]?.results[0]?.businessId ?? null;
  }

  /** The merchants the person may see. */
  async merchants(user: DashboardUser): Promise<Merchant[]> {
    const merchants: Merchant[] = [];
    for (let page = 1; page <= 50; page++) {
      const { data, error, response } = await this.client.GET('/merchant', { params: { query: { page, limit: 100 } } });
      if (!data) throw new PayinsApiError(response.status, error);
      merchants.push(...data[0].results);
      if (page >= data[0].pageCount) break;
    }
    return user.merchantId ? merchants.filter((m) => m.merchantId === user.merchantId) : merchants;
  }

  /** Operation 36 with the person's scope; a page of rows and the exact total. */
  async ledger(user: DashboardUser, filters: PayinFilters): Promise<{ rows: Payin[]; total: number; pageCount: number }> {
    const query = user.merchantId ? { ...filters, merchantId: user.merchantId } : filters;
    const { data, error, response } = await this.client.GET('/payin', { params: { query } });
    if (!data) throw new PayinsApiError(response.status, error);
    return { rows: data[0].results, total: data[0].rowCount, pageCount: data[0].pageCount };
  }

  /** The overview's figures over the last `days` UTC days, within the person's scope. */
  async summary(user: DashboardUser, days: number, merchantId?: string): Promise<PayinSummary> {
    const until = new Date();
    const dateFrom = new Date(until.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    const scope = user.merchantId ?? merchantId;
    const query = { dateFrom, dateUntil: until.toISOString().slice(0, 10), ...(scope ? { merchantId: scope } : {}) };
    const { data, error, response } = await this.client.GET('/payin/summary', { params: { query } });
    if (!data) throw new PayinsApiError(response.status, error);
    return data;
  }

  /** One payment, or null when it does not exist or is outside the person's scope. */
  async paymentIntent(user: DashboardUser, paymentIntentId: string): Promise<PaymentIntent | null> {
    if (!UUID.test(paymentIntentId)) return null;
    const { data, error, response } = await this.client.GET('/payment-intent/{paymentIntentId}', { params: { path: { paymentIntentId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    return user.merchantId === null || user.merchantId === data.merchantId ? data : null;
  }

  /** Every ledger row of one payment (its attempts and refunds), oldest first. */
  async rowsOf(user: DashboardUser, paymentIntentId: string): Promise<Payin[]> {
    const { rows } = await this.ledger(user, { paymentIntentId, limit: 100, order: 'ASC' });
    return rows;
  }

  /** The ids of one payment's events, newest first. */
  async eventIdsOf(user: DashboardUser, paymentIntentId: string): Promise<string[]> {
    const query = { paymentIntentId, limit: 100, ...(user.merchantId ? { merchantId: user.merchantId } : {}) };
    const { data, error, response } = await this.client.GET('/event', { params: { query } });
    if (!data) throw new PayinsApiError(response.status, error);
    return data[0].results.map((event) => event.id);
  }

  /** One payment's events in the order they happened (their sequence: one transaction's events share a time), each with its webhook deliveries. */
  async timelineOf(user: DashboardUser, paymentIntentId: string): Promise<EventWithDeliveries[]> {
    const events = (await this.eventIdsOf(user, paymentIntentId)).map((id) => ({ id }));
    const story = await Promise.all(
      events.map(async (event) => {
        const one = await this.client.GET('/event/{eventId}', { params: { path: { eventId: event.id } } });
        if (!one.data) throw new PayinsApiError(one.response.status, one.error);
        return one.data;
      }),
    );
    return story.sort((a, b) => a.sequence - b.sequence);
  }

  /** Sends an event again now, to every endpoint that wants it (contract §14). The caller checks it is the person's to send. */
  async redeliver(eventId: string): Promise<EventWithDeliveries> {
    const { data, error, response } = await this.client.POST('/event/{eventId}/redeliver', { params: { path: { eventId } }, body: {} });
    if (!data) throw new PayinsApiError(response.status, error);
    return data;
  }

  /**
   * A refund (operation 22) or a manual refund (23) through the API, with the
   * Idempotency-Key of the confirmation page: the same confirmation sent twice
   * refunds once.
   */
  async refund(
    paymentIntentId: string,
    kind: 'refund' | 'manual',
    amount: number | undefined,
    idempotencyKey: string,
  ): Promise<PaymentIntent> {
    const body = amount === undefined ? {} : { requestedRefundAmount: amount };
    // The ledger shows it made from the dashboard (`origin` DASHBOARD).
    const params = { path: { paymentIntentId }, header: { 'Idempotency-Key': idempotencyKey, 'Refund-Origin': 'DASHBOARD' as const } };
    const { data, error, response } =
      kind === 'refund'
        ? await this.client.POST('/payment-intent/{paymentIntentId}/refund', { params, body })
        : await this.client.POST('/payment-intent/{paymentIntentId}/manual-refund', {
            params,
            body: { ...body, status: 'MANUAL_REFUND_CONFIRMED' },
          });
    if (!data) throw new PayinsApiError(response.status, error);
    return data;
  }

  private async answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (data === undefined) throw new PayinsApiError(response.status, error as ErrorBody);
    return data;
  }

  /** A merchant's scope: the person's own merchant, or the one asked for. */
  private scope(user: DashboardUser, merchantId?: string): { merchantId?: string } {
    const scope = user.merchantId ?? merchantId;
    return scope ? { merchantId: scope } : {};
  }

  async links(
    user: DashboardUser,
    filters: { page: number; status?: 'ACTIVE' | 'USED' | 'EXPIRED'; merchantId?: string },
  ): Promise<Link[]> {
    return this.answer(
      this.client.GET('/link', {
        params: { query: { page: filters.page, limit: 25, status: filters.status, ...this.scope(user, filters.merchantId) } },
      }),
    );
  }

  async link(user: DashboardUser, linkId: string): Promise<Link | null> {
    if (!UUID.test(linkId)) return null;
    const { data, error, response } = await this.client.GET('/link/{linkId}', { params: { path: { linkId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    return user.merchantId === null || user.merchantId === data.merchantId ? data : null;
  }

  createLink(body: CreateLink): Promise<Link> {
    return this.answer(this.client.POST('/link', { body }));
  }

  async shareLink(linkId: string, receiverEmail: string, receiverName: string): Promise<void> {
    await this.answer(this.client.POST('/link/{linkId}/share', { params: { path: { linkId } }, body: { receiverEmail, receiverName } }));
  }

  async deleteLink(linkId: string): Promise<void> {
    await this.answer(this.client.DELETE('/link/{linkId}', { params: { path: { linkId } } }));
  }

  /** The merchant's processors a link may offer: ACTIVE and offered. */
  async processorsOf(merchantId: string): Promise<MerchantCountryProcessor[]> {
    const all = await this.answer(this.client.GET('/merchant-country-processor', { params: { query: { merchantId } } }));
    return all.filter((p) => p.onboardingStatus === 'ACTIVE' && p.active);
  }

  async payers(
    user: DashboardUser,
    query: { page: number; searchTerm?: string; merchantId?: string },
  ): Promise<{ rows: Payer[]; total: number; pageCount: number }> {
    const data = await this.answer(
      this.client.GET('/payer', {
        params: { query: { page: query.page, limit: 25, searchTerm: query.searchTerm, ...this.scope(user, query.merchantId) } },
      }),
    );
    return { rows: data[0].results, total: data[0].rowCount, pageCount: data[0].pageCount };
  }

  async webhookEndpoints(user: DashboardUser): Promise<WebhookEndpoint[]> {
    const endpoints = await this.answer(this.client.GET('/webhook-endpoint'));
    return user.merchantId ? endpoints.filter((e) => e.merchantId === user.merchantId) : endpoints;
  }

  async events(
    user: DashboardUser,
    query: { page: number; delivered?: 'true' | 'false' },
  ): Promise<{ rows: EventSummary[]; total: number; pageCount: number }> {
    const data = await this.answer(
      this.client.GET('/event', { params: { query: { page: query.page, limit: 25, delivered: query.delivered, ...this.scope(user) } } }),
    );
    return { rows: data[0].results, total: data[0].rowCount, pageCount: data[0].pageCount };
  }

  /** One event of the person's scope, or null. */
  async event(user: DashboardUser, eventId: string): Promise<EventWithDeliveries | null> {
    if (!UUID.test(eventId)) return null;
    const { data, error, response } = await this.client.GET('/event/{eventId}', { params: { path: { eventId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    return user.merchantId === null || user.merchantId === data.merchantId ? data : null;
  }

  async configurationOf(merchantId: string): Promise<MerchantConfiguration | null> {
    const { data, response, error } = await this.client.GET('/merchant/{merchantId}/configuration', { params: { path: { merchantId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    return data;
  }

  createEndpoint(body: { url: string; description?: string; merchantId?: string }): Promise<{ webhookEndpointId: string; secret: string }> {
    return this.answer(this.client.POST('/webhook-endpoint', { body }));
  }

  async updateEndpoint(webhookEndpointId: string, body: { disabled: boolean }): Promise<void> {
    await this.answer(this.client.PATCH('/webhook-endpoint/{webhookEndpointId}', { params: { path: { webhookEndpointId } }, body }));
  }

  async deleteEndpoint(webhookEndpointId: string): Promise<void> {
    await this.answer(this.client.DELETE('/webhook-endpoint/{webhookEndpointId}', { params: { path: { webhookEndpointId } } }));
  }

  /** The merchant's balance per currency (contract §19), or null when it is outside the person's scope. */
  async balance(user: DashboardUser, merchantId: string): Promise<Balance | null> {
    if (!UUID.test(merchantId) || (user.merchantId !== null && user.merchantId !== merchantId)) return null;
    const { data, error, response } = await this.client.GET('/merchant/{merchantId}/balance', { params: { path: { merchantId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    return data;
  }

  /** A page of a merchant's balance transactions, newest first (one payout's, when named). */
  async balanceTransactions(
    user: DashboardUser,
    query: { merchantId: string; page: number; limit: number; payoutId?: string },
  ): Promise<{ rows: BalanceTransaction[]; total: number; pageCount: number }> {
    const data = jsonOf(
      await this.answer(
        this.client.GET('/balance-transaction', { params: { query: { ...query, ...this.scope(user, query.merchantId) } } }),
      ),
    );
    return { rows: data[0].results, total: data[0].rowCount, pageCount: data[0].pageCount };
  }

  /** The merchant's settlement accounts (where its payouts go), one per currency. */
  /**
   * An admin's confirmation of a new settlement account (contract §24): the
   * payins API checks the person's authenticator code itself, and answers
   * the account, its hold ended.
   */
  confirmSettlementAccount(merchantId: string, currency: string, confirmation: { confirmation: string }): Promise<SettlementAccount> {
    return this.answer(
      this.client.POST('/merchant/{merchantId}/settlement-account/{currency}/confirm', {
        params: { path: { merchantId, currency: currency as never } },
        body: confirmation,
      }),
    );
  }

  /**
   * Where a merchant is, as its money pages need it (contract §24): the time
   * zone its dates are shown in and its country's currency, from its
   * country processors; kept for ten minutes. Null when it offers none.
   */
  async localeOf(merchantId: string): Promise<MerchantLocale | null> {
    const known = this.locales.get(merchantId);
    if (known && known.until > Date.now()) return known.locale;
    const processors = await this.answer(this.client.GET('/merchant-country-processor', { params: { query: { merchantId } } }));
    const country = processors[0]?.countryProcessor.country;
    const locale = country ? { timeZone: country.timeZone, currency: country.iso4217CurrencyCode } : null;
    this.locales.set(merchantId, { locale, until: Date.now() + 600_000 });
    return locale;
  }

  settlementAccounts(merchantId: string): Promise<PayinsComponents['schemas']['SettlementAccountResponse'][]> {
    return this.answer(this.client.GET('/merchant/{merchantId}/settlement-account', { params: { path: { merchantId } } }));
  }

  /** A payout of the merchant's available balance in a currency (or of an amount of it), once per confirmation (its Idempotency-Key). */
  requestPayout(merchantId: string, currency: Payout['currency'], amount: number | undefined, idempotencyKey: string): Promise<Payout> {
    return this.answer(
      this.client.POST('/merchant/{merchantId}/payout', {
        params: { path: { merchantId }, header: { 'Idempotency-Key': idempotencyKey } },
        body: { currency: currency as never, ...(amount === undefined ? {} : { amount }) },
      }),
    );
  }

  async payouts(user: DashboardUser, filters: PayoutFilters): Promise<{ rows: Payout[]; total: number; pageCount: number }> {
    const data = jsonOf(
      await this.answer(this.client.GET('/payout', { params: { query: { ...filters, ...this.scope(user, filters.merchantId) } } })),
    );
    return { rows: data[0].results, total: data[0].rowCount, pageCount: data[0].pageCount };
  }

  /** One payout of the person's scope, or null. */
  async payout(user: DashboardUser, payoutId: string): Promise<Payout | null> {
    if (!UUID.test(payoutId)) return null;
    const { data, error, response } = await this.client.GET('/payout/{payoutId}', { params: { path: { payoutId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    return user.merchantId === null || user.merchantId === data.merchantId ? data : null;
  }

  /** The CSV of what a payout swept, as the API streams it (Accept: text/csv). */
  async payoutTransactionsCsv(payoutId: string): Promise<ReadableStream<Uint8Array>> {
    const { data, error, response } = await this.client.GET('/payout/{payoutId}/transactions', {
      params: { path: { payoutId } },
      headers: { accept: 'text/csv' },
      parseAs: 'stream',
    });
    if (!data) throw new PayinsApiError(response.status, error);
    return data as ReadableStream<Uint8Array>;
  }

  async reconciliationRuns(
    user: DashboardUser,
    query: { page: number; merchantId?: string },
  ): Promise<{ rows: ReconciliationRun[]; total: number; pageCount: number }> {
    const data = await this.answer(
      this.client.GET('/reconciliation-run', { params: { query: { page: query.page, limit: 25, ...this.scope(user, query.merchantId) } } }),
    );
    return { rows: data[0].results, total: data[0].rowCount, pageCount: data[0].pageCount };
  }

  async reconciliationRun(user: DashboardUser, runId: string): Promise<ReconciliationRun | null> {
    if (!UUID.test(runId)) return null;
    const { data, error, response } = await this.client.GET('/reconciliation-run/{runId}', { params: { path: { runId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    return user.merchantId === null || user.merchantId === data.merchantId ? data : null;
  }

  async configure(
    merchantId: string,
    body: {
      shortName?: string;
      notificationEmails: string[];
      paymentSuccessNotification: boolean;
      paymentErrorNotification: boolean;
      fastPaymentsEnabled: boolean;
      installments: InstallmentPolicy;
      routing?: RoutingRule[];
    },
  ): Promise<void> {
    await this.answer(this.client.PUT('/merchant/{merchantId}/configuration', { params: { path: { merchantId } }, body }));
  }

  /** The card-testing guard's blocks of a merchant's public pages, of the last 7 days, and its settings (contract §30). */
  cardTestingBlocks(merchantId: string): Promise<CardTestingBlocks> {
    return this.answer(this.client.GET('/merchant/{merchantId}/card-testing/blocks', { params: { path: { merchantId } } }));
  }

  /** Each processor account's circuit and success rates (contract §26), for the person's merchants. */
  async processorsHealth(user: DashboardUser): Promise<ProcessorHealth[]> {
    const { processors } = await this.answer(this.client.GET('/health/processors'));
    return processors.filter((p) => user.merchantId === null || p.merchantId === user.merchantId);
  }

  /** The business's API credentials and its merchants', with each secret's last use (the team page; never a secret). */
  credentials(): Promise<Credential[]> {
    return this.answer(this.client.GET('/credential'));
  }

  /** Disputes of the person's scope, the nearest evidence due date first. */
  async disputes(user: DashboardUser, filters: DisputeFilters): Promise<{ rows: Dispute[]; total: number; pageCount: number }> {
    const data = await this.answer(
      this.client.GET('/dispute', { params: { query: { ...filters, sort: 'DUE_DATE', ...this.scope(user, filters.merchantId) } } }),
    );
    return { rows: data[0].results, total: data[0].rowCount, pageCount: data[0].pageCount };
  }

  /** Subscriptions of the person's scope (contract §31), newest first. */
  async subscriptions(
    user: DashboardUser,
    filters: SubscriptionFilters,
  ): Promise<{ rows: Subscription[]; total: number; pageCount: number }> {
    const data = await this.answer(
      this.client.GET('/subscription', { params: { query: { ...filters, ...this.scope(user, filters.merchantId) } } }),
    );
    return { rows: data[0].results, total: data[0].rowCount, pageCount: data[0].pageCount };
  }

  /** One subscription of the person's scope with its invoices (the latest 100, oldest period first), or null. */
  async subscription(user: DashboardUser, subscriptionId: string): Promise<{ subscription: Subscription; invoices: Invoice[] } | null> {
    if (!UUID.test(subscriptionId)) return null;
    const { data, error, response } = await this.client.GET('/subscription/{subscriptionId}', { params: { path: { subscriptionId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    if (user.merchantId !== null && user.merchantId !== data.merchantId) return null;
    const invoices = await this.answer(this.client.GET('/invoice', { params: { query: { subscriptionId, limit: 100 } } }));
    return { subscription: data, invoices: [...invoices[0].results].sort((a, b) => a.periodNumber - b.periodNumber) };
  }

  pauseSubscription(subscriptionId: string): Promise<Subscription> {
    return this.answer(this.client.POST('/subscription/{subscriptionId}/pause', { params: { path: { subscriptionId } } }));
  }

  resumeSubscription(subscriptionId: string): Promise<Subscription> {
    return this.answer(this.client.POST('/subscription/{subscriptionId}/resume', { params: { path: { subscriptionId } } }));
  }

  cancelSubscription(subscriptionId: string, atPeriodEnd: boolean): Promise<Subscription> {
    return this.answer(
      this.client.POST('/subscription/{subscriptionId}/cancel', { params: { path: { subscriptionId } }, body: { atPeriodEnd } }),
    );
  }

  /** One dispute of the person's scope, or null. */
  async dispute(user: DashboardUser, disputeId: string): Promise<Dispute | null> {
    if (!UUID.test(disputeId)) return null;
    const { data, error, response } = await this.client.GET('/dispute/{disputeId}', { params: { path: { disputeId } } });
    if (response.status === 404) return null;
    if (!data) throw new PayinsApiError(response.status, error);
    return user.merchantId === null || user.merchantId === data.merchantId ? data : null;
  }

  /** Evidence for a dispute, once per upload form (its Idempotency-Key): the API checks each file's content. */
  addEvidence(disputeId: string, files: readonly EvidenceFile[], idempotencyKey: string): Promise<Dispute> {
    return this.answer(uploadDisputeEvidence(this.client, disputeId, files, { idempotencyKey }));
  }

  /** Sends the dispute's evidence to the processor (UNDER_REVIEW). */
  submitDispute(disputeId: string): Promise<Dispute> {
    return this.answer(this.client.POST('/dispute/{disputeId}/submit', { params: { path: { disputeId } } }));
  }

  /** Gives the dispute up (ACCEPTED): the amount stays with the payer. */
  acceptDispute(disputeId: string): Promise<Dispute> {
    return this.answer(this.client.POST('/dispute/{disputeId}/accept', { params: { path: { disputeId } } }));
  }
}
