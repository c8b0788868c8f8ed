import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { isCurrency, TransactionStatus, typedAmountToMinor, wireAmount } from '@pcs/kernel';
import { FormPipe, RefundForm } from './forms';
import type { Response } from 'express';
import * as crypto from 'node:crypto';
import { CSV_HEADER, csvRow } from './csv';
import { apiTextOf } from './area-forms';
import { DASHBOARD_HEADERS, money } from './pages/layout';
import { balanceOf, confirmRefundPage, paymentPage } from './pages/payment';
import { FilterForm, paymentsPage } from './pages/payments';
import { fill, TEXTS } from './pages/texts';
import { PayinFilters, PayinsApi, PayinsApiError, PaymentIntent, UUID } from './payins-api';
import type { PageLanguage } from '@pcs/pages';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, pageOf, Redirect, Requires } from './web';

const PAGE_SIZE = 25;
/** The API's largest page (operation 36). */
const EXPORT_PAGE = 100;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d{1,13}(\.\d{1,4})?$/;

/** The form's filters, kept only when well-formed (the API validates again): what the list and its links carry. */
function filterForm(query: Record<string, unknown>): FilterForm {
  const pick = (name: string, valid: (v: string) => boolean) => {
    const value = query[name];
    return typeof value === 'string' && value !== '' && valid(value) ? value : undefined;
  };
  return {
    status: pick('status', (v) => (Object.values(TransactionStatus) as string[]).includes(v)),
    currency: pick('currency', (v) => isCurrency(v)),
    minAmount: pick('minAmount', (v) => AMOUNT.test(v)),
    maxAmount: pick('maxAmount', (v) => AMOUNT.test(v)),
    dateFrom: pick('dateFrom', (v) => DATE.test(v)),
    dateUntil: pick('dateUntil', (v) => DATE.test(v)),
    merchantId: pick('merchantId', (v) => UUID.test(v)),
    sort: pick('sort', (v) => ['DATE', 'AMOUNT', 'STATUS'].includes(v)),
    order: pick('order', (v) => ['ASC', 'DESC'].includes(v)),
  };
}

export function toApiFilters(form: FilterForm): PayinFilters {
  return {
    status: form.status as PayinFilters['status'],
    currency: form.currency as PayinFilters['currency'],
    minAmount: form.minAmount === undefined ? undefined : Number(form.minAmount),
    maxAmount: form.maxAmount === undefined ? undefined : Number(form.maxAmount),
    dateFrom: form.dateFrom,
    dateUntil: form.dateUntil,
    merchantId: form.merchantId,
    sort: form.sort as PayinFilters['sort'],
    order: form.order as PayinFilters['order'],
  };
}

/** A refund as the form asks it: its kind, the amount typed (empty: all that is refundable) and in minor units. */
export interface RefundAsked {
  readonly kind: 'refund' | 'manual';
  readonly typedAmount: string;
  readonly amountMinor: number;
}

/**
 * What the refund form asks, read against the intent's own `refundableAmount` (contract §28: the API's figure,
 * never the dashboard's arithmetic), or the refusal to show: nothing refundable, or an amount that is not one
 * of the currency or is over what is refundable. A form that names no kind is unreadable (400).
 */
export function refundAsked(body: RefundForm, intent: PaymentIntent, language: PageLanguage): RefundAsked | { refusal: string } {
  const t = TEXTS[language];
  const { refundable } = balanceOf(intent);
  if (body.kind !== 'refund' && body.kind !== 'manual') throw new PageError(400, 'unreadable');
  const typedAmount = typeof body.amount === 'string' ? body.amount.trim() : '';
  const amountMinor = typedAmount === '' ? refundable : typedAmountToMinor(typedAmount, intent.currency);
  if (refundable === 0) return { refusal: t.nothingRefundable };
  if (amountMinor === null || amountMinor <= 0 || amountMinor > refundable)
    return {
      refusal: fill(t.refundAmountInvalid, { refundable: money(wireAmount(refundable, intent.currency), intent.currency, language) }),
    };
  return { kind: body.kind, typedAmount, amountMinor };
}

/** Payments: the ledger with every filter of operation 36, one payment's page, and refunds with a confirmation step. */
@Controller('payments')
export class PaymentsController {
  constructor(
    private readonly api: PayinsApi,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  async list(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const filters = filterForm(query);
    const page = pageOf(query.page);
    const merchants = await this.api.merchants(user);
    let result = { rows: [] as Awaited<ReturnType<PayinsApi['ledger']>>['rows'], total: 0, pageCount: 0 };
    let problem: string | undefined;
    try {
      result = await this.api.ledger(user, { ...toApiFilters(filters), page, limit: PAGE_SIZE });
    } catch (error) {
      if (!(error instanceof PayinsApiError) || error.status !== 400) throw error;
      problem = error.body?.showMessage?.[apiTextOf(language)] ?? error.message;
    }
    // Each merchant's money in its own time (contract §24): the zones of the merchants on this page.
    const merchantIds = [...new Set(result.rows.map((row) => row.merchantId))];
    const zones = Object.fromEntries(
      await Promise.all(merchantIds.map(async (id) => [id, (await this.api.localeOf(id))?.timeZone ?? 'UTC'] as const)),
    );
    response
      .status(problem ? 400 : 200)
      .set(DASHBOARD_HEADERS)
      .send(paymentsPage(language, { user, csrfToken, filters, merchants, ...result, zones, page, limit: PAGE_SIZE, problem }));
  }

  /**
   * The filtered ledger as CSV, streamed a page of the API at a time, oldest
   * first; rows created after the export began are left out, so that none is
   * listed twice or missed while it runs.
   */
  @Get('export.csv')
  async export(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user } = request.dashboard!;
    const filters = { ...toApiFilters(filterForm(query)), sort: 'DATE' as const, order: 'ASC' as const };
    const startedAt = new Date().toISOString();
    if (!filters.dateUntil || filters.dateUntil >= startedAt.slice(0, 10)) filters.dateUntil = startedAt;
    // The first page before any byte: a refusal (a bad filter) is still a page, not half a file.
    let page = await this.api.ledger(user, { ...filters, page: 1, limit: EXPORT_PAGE });
    response.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="payments-${startedAt.slice(0, 10)}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    response.write(CSV_HEADER);
    for (let n = 1; ;) {
      for (const row of page.rows) response.write(csvRow(row));
      if (n >= page.pageCount || request.destroyed) break;
      n += 1;
      page = await this.api.ledger(user, { ...filters, page: n, limit: EXPORT_PAGE });
    }
    response.end();
    await this.identity.audit({
      ...actorOf(request),
      action: 'payments:export',
      result: 'succeeded',
      detail: { rows: page.total, filters: Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)) },
    });
  }

  @Get(':id')
  async show(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Query('done') done: unknown,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const intent = await this.api.paymentIntent(user, id);
    if (!intent) throw new PageError(404, 'notFound');
    const [rows, timeline] = await Promise.all([
      this.api.rowsOf(user, intent.paymentIntentId),
      this.api.timelineOf(user, intent.paymentIntentId),
    ]);
    const t = TEXTS[languageOf(request)];
    const notice = done === 'refund' ? t.refundDone : done === 'redeliver' ? t.redelivered : undefined;
    const timeZone = await this.zoneOf(intent.merchantId);
    response.set(DASHBOARD_HEADERS).send(paymentPage(languageOf(request), { user, csrfToken, intent, rows, timeline, notice, timeZone }));
  }

  /** The merchant's time zone, for the dates of its payment's money (UTC when it offers no processor). */
  private async zoneOf(merchantId: string): Promise<string> {
    return (await this.api.localeOf(merchantId))?.timeZone ?? 'UTC';
  }

  /**
   * A refund in two steps: the first post shows what will be refunded and
   * gives the confirmation a key of its own (its Idempotency-Key at the API,
   * so a double submit refunds once); the second refunds and is audited.
   */
  @Post(':id/refund')
  @HttpCode(200)
  @Requires('refund', 'refund')
  async refund(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Body(FormPipe) body: RefundForm,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const intent = await this.api.paymentIntent(user, id);
    if (!intent) throw new PageError(404, 'notFound');
    const asked = refundAsked(body, intent, language);
    if ('refusal' in asked) return this.showPayment(request, response, intent, 400, asked.refusal);
    if (body.confirmed !== 'yes') {
      response
        .set(DASHBOARD_HEADERS)
        .send(confirmRefundPage(language, { user, csrfToken, intent, ...asked, operation: crypto.randomUUID() }));
      return;
    }
    const operation = typeof body.operation === 'string' && UUID.test(body.operation) ? body.operation : null;
    if (!operation) throw new PageError(403, 'forbidden');
    const refused = await this.sendRefund(request, intent, asked, operation);
    if (refused !== null) return this.showPayment(request, response, intent, 422, fill(TEXTS[language].refundRefused, { reason: refused }));
    throw new Redirect(`/payments/${intent.paymentIntentId}?done=refund`);
  }

  /**
   * Refunds at the payins API with the confirmation's key and audits the outcome: null when done,
   * the API's reason when it refused (a 4xx other than 429); anything else is thrown on.
   */
  private async sendRefund(
    request: DashboardRequest,
    intent: PaymentIntent,
    asked: RefundAsked,
    operation: string,
  ): Promise<string | null> {
    const { kind, amountMinor, typedAmount } = asked;
    const audit = { ...actorOf(request), action: kind === 'manual' ? 'manual-refund' : 'refund', target: intent.paymentIntentId };
    const wire = typedAmount === '' ? undefined : wireAmount(amountMinor, intent.currency);
    const detail = { amount: wire === undefined ? 'all' : String(wire), currency: intent.currency, operation };
    try {
      await this.api.refund(intent.paymentIntentId, kind, wire, operation);
    } catch (error) {
      const refused = error instanceof PayinsApiError && error.status < 500 && error.status !== 429;
      await this.identity.audit({
        ...audit,
        result: refused ? 'refused' : 'failed',
        detail: { ...detail, errorId: error instanceof PayinsApiError ? error.body?.errorId : undefined },
      });
      if (!refused) throw error;
      return error.body?.showMessage?.[apiTextOf(languageOf(request))] ?? '';
    }
    await this.identity.audit({ ...audit, result: 'succeeded', detail });
    return null;
  }

  /** The payment's page again, with what was wrong. */
  private async showPayment(
    request: DashboardRequest,
    response: Response,
    intent: PaymentIntent,
    status: number,
    problem: string,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(
        paymentPage(languageOf(request), {
          user,
          csrfToken,
          intent,
          rows: await this.api.rowsOf(user, intent.paymentIntentId),
          timeline: await this.api.timelineOf(user, intent.paymentIntentId),
          timeZone: await this.zoneOf(intent.merchantId),
          problem,
        }),
      );
  }

  /** Sends one of the payment's events to its webhooks again (admins: webhooks are theirs), audited. */
  @Post(':id/events/:eventId/redeliver')
  @Requires('manage-webhooks', 'event:redeliver')
  async redeliver(@Req() request: DashboardRequest, @Param('id') id: string, @Param('eventId') eventId: string): Promise<never> {
    const { user } = request.dashboard!;
    const intent = await this.api.paymentIntent(user, id);
    // Only an event of this payment, which the person may see.
    if (!intent || !(await this.api.eventIdsOf(user, intent.paymentIntentId)).includes(eventId)) throw new PageError(404, 'notFound');
    const event = await this.api.redeliver(eventId);
    await this.identity.audit({
      ...actorOf(request),
      action: 'event:redeliver',
      target: eventId,
      result: 'succeeded',
      detail: { type: event.type, paymentIntentId: intent.paymentIntentId },
    });
    throw new Redirect(`/payments/${intent.paymentIntentId}?done=redeliver`);
  }
}
