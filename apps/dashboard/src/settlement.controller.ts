import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { signSettlementConfirmation } from '@pcs/config';
import { DashboardIdentity, DashboardUser } from '@pcs/dashboard-identity';
import { typedAmountToMinor, wireAmount } from '@pcs/kernel';
import { ConfirmAccountForm, FormPipe, PayoutForm } from './forms';
import type { Response } from 'express';
import * as crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { balancePage, confirmPayoutPage } from './pages/balance';
import { apiTextOf } from './area-forms';
import { DASHBOARD_HEADERS, money } from './pages/layout';
import { payoutPage, payoutsPage } from './pages/payouts';
import { reconciliationPage, reconciliationRunPage } from './pages/reconciliation';
import { fill, TEXTS } from './pages/texts';
import { Balance, Merchant, PayinsApi, PayinsApiError, UUID } from './payins-api';
import { DashboardSettings } from './settings';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, pageOf, Redirect, Requires } from './web';

/** The merchant a page is about: the person's own, the one asked for among theirs, or their first. */
export function merchantOf(merchants: Merchant[], asked: unknown): string {
  if (merchants.length === 0) throw new PageError(404, 'notFound');
  return (typeof asked === 'string' && merchants.find((m) => m.merchantId === asked)?.merchantId) || merchants[0].merchantId;
}

/** A merchant's balance (contract §19): per currency, what becomes available when, its movements, and a payout on request. */
@Controller('balance')
export class BalanceController {
  constructor(
    private readonly api: PayinsApi,
    private readonly identity: DashboardIdentity,
    private readonly settings: DashboardSettings,
  ) {}

  @Get()
  async show(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const merchants = await this.api.merchants(user);
    const merchantId = merchantOf(merchants, query.merchantId);
    const balance = await this.api.balance(user, merchantId);
    if (!balance) throw new PageError(404, 'notFound');
    const notice = query.done === 'confirmed' ? TEXTS[language].accountConfirmed : undefined;
    response
      .set(DASHBOARD_HEADERS)
      .send(balancePage(language, { ...(await this.pageOf(user, csrfToken, merchants, merchantId, balance)), notice }));
  }

  /**
   * A dashboard admin ends a new settlement account's hold with a fresh code
   * of their authenticator (contract §24): the payins API checks the code
   * against the person, counts a wrong one towards their lockout, and audits
   * either way; the dashboard audits its request too.
   */
  @Post('settlement-account/confirm')
  @HttpCode(200)
  @Requires('confirm-settlement-accounts', 'settlement-account:confirm')
  async confirmAccount(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Body(FormPipe) body: ConfirmAccountForm,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const merchants = await this.api.merchants(user);
    const merchantId =
      typeof body.merchantId === 'string' ? merchants.find((m) => m.merchantId === body.merchantId)?.merchantId : undefined;
    if (!merchantId || typeof body.currency !== 'string' || !/^[A-Z]{3}$/.test(body.currency)) throw new PageError(404, 'notFound');
    const code = typeof body.code === 'string' ? body.code.replace(/\s/g, '') : '';
    const target = `${merchantId}:${body.currency}`;
    const audit = { ...actorOf(request), action: 'settlement-account:confirm', target };
    const refusedPage = async (reason: string) => {
      const balance = (await this.api.balance(user, merchantId))!;
      const problem = fill(TEXTS[language].accountConfirmRefused, { reason });
      response
        .status(422)
        .set(DASHBOARD_HEADERS)
        .send(balancePage(language, { ...(await this.pageOf(user, csrfToken, merchants, merchantId, balance)), problem }));
    };
    // The admin's fresh code is checked here, by the dashboard's identity (counted towards their lockout, audited): the payins
    // API takes no person's code (contract §30), only the confirmation the dashboard makes of it, signed with the master key.
    const admin = await this.identity.confirmAsAdmin({
      businessId: user.businessId,
      merchantId,
      email: user.email,
      code,
      address: request.ip ?? 'unknown',
      action: 'settlement-account:confirm',
      target,
    });
    if (!admin) return refusedPage(TEXTS[language].codeWrong);
    try {
      const account = (await this.api.settlementAccounts(merchantId)).find((a) => a.currency === body.currency);
      if (!account) throw new PageError(404, 'notFound');
      const confirmation = signSettlementConfirmation(this.settings.secretsMasterKey, {
        businessId: admin.businessId,
        merchantId,
        currency: body.currency,
        bankId: account.bankId,
        accountNumber: account.accountNumber,
        confirmedBy: admin.email,
        at: Math.floor(Date.now() / 1000),
      });
      await this.api.confirmSettlementAccount(merchantId, body.currency, { confirmation });
      throw new Redirect(`/balance?merchantId=${encodeURIComponent(merchantId)}&done=confirmed`);
    } catch (error) {
      if (error instanceof Redirect) throw error;
      const refused = error instanceof PayinsApiError && error.status < 500 && error.status !== 429;
      await this.identity.audit({
        ...audit,
        result: refused ? 'refused' : 'failed',
        detail: { errorId: error instanceof PayinsApiError ? error.body?.errorId : undefined },
      });
      if (!refused) throw error;
      return refusedPage(error.body?.showMessage?.[apiTextOf(language)] ?? '');
    }
  }

  /** What the balance page shows of a merchant: its movements, where it is (time zone, currency) and its accounts. */
  private async pageOf(user: DashboardUser, csrfToken: string, merchants: Merchant[], merchantId: string, balance: Balance) {
    const [movements, locale, accounts] = await Promise.all([
      this.api.balanceTransactions(user, { merchantId, page: 1, limit: 20 }),
      this.api.localeOf(merchantId),
      this.api.settlementAccounts(merchantId),
    ]);
    return { user, csrfToken, merchants, merchantId, balance, movements: movements.rows, locale, accounts };
  }

  /**
   * A payout, in two steps as a refund: the confirmation shows what will be
   * paid out and where, and carries the key that makes a double submit pay
   * once (the API's Idempotency-Key). Operators and admins; audited.
   */
  @Post('payout')
  @HttpCode(200)
  @Requires('request-payout', 'payout')
  async payout(@Req() request: DashboardRequest, @Res() response: Response, @Body(FormPipe) body: PayoutForm): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const t = TEXTS[language];
    const merchants = await this.api.merchants(user);
    const merchantId =
      typeof body.merchantId === 'string' ? merchants.find((m) => m.merchantId === body.merchantId)?.merchantId : undefined;
    const balance = merchantId && (await this.api.balance(user, merchantId));
    if (!merchantId || !balance) throw new PageError(404, 'notFound');
    const currency = balance.balances.find((b) => b.currency === body.currency)?.currency;
    if (!currency) throw new PageError(400, 'unreadable');
    const typed = typeof body.amount === 'string' ? body.amount.trim() : '';
    const minor = typed === '' ? null : typedAmountToMinor(typed, currency);
    const shapeOk = typed === '' || (minor !== null && minor > 0);
    // The amount asked for, in major units as the API takes it; undefined: everything available.
    const amount = minor === null ? undefined : wireAmount(minor, currency);
    const page = async (problem: string, status: number) => {
      response
        .status(status)
        .set(DASHBOARD_HEADERS)
        .send(balancePage(language, { ...(await this.pageOf(user, csrfToken, merchants, merchantId, balance)), problem }));
    };
    if (!shapeOk) return page(t.payoutAmountInvalid, 400);
    const available = balance.balances.find((b) => b.currency === currency)!.available;
    if (body.confirmed !== 'yes') {
      const account = (await this.api.settlementAccounts(merchantId)).find((a) => a.currency === currency);
      response.set(DASHBOARD_HEADERS).send(
        confirmPayoutPage(language, {
          user,
          csrfToken,
          merchantId,
          currency,
          typedAmount: amount === undefined ? '' : String(amount),
          shown: money(amount ?? available, currency, language),
          account: account ? `${account.bankName} ${account.accountNumber}` : '—',
          operation: crypto.randomUUID(),
        }),
      );
      return;
    }
    const operation = typeof body.operation === 'string' && UUID.test(body.operation) ? body.operation : null;
    if (!operation) throw new PageError(403, 'forbidden');
    const audit = { ...actorOf(request), action: 'payout', target: merchantId };
    const detail = { currency, amount: amount === undefined ? 'available' : String(amount), operation };
    try {
      const made = await this.api.requestPayout(merchantId, currency, amount, operation);
      await this.identity.audit({ ...audit, result: 'succeeded', detail: { ...detail, payoutId: made.payoutId } });
      throw new Redirect(`/payouts/${made.payoutId}?done=requested`);
    } catch (error) {
      if (error instanceof Redirect) throw error;
      const refused = error instanceof PayinsApiError && error.status < 500 && error.status !== 429;
      await this.identity.audit({
        ...audit,
        result: refused ? 'refused' : 'failed',
        detail: { ...detail, errorId: error instanceof PayinsApiError ? error.body?.errorId : undefined },
      });
      if (!refused) throw error;
      return page(fill(t.payoutRefused, { reason: error.body?.showMessage?.[apiTextOf(language)] ?? '' }), 422);
    }
  }
}

/** Payouts: the list, one payout with what it swept, and that as CSV. */
@Controller('payouts')
export class PayoutsController {
  constructor(private readonly api: PayinsApi) {}

  @Get()
  async list(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const merchants = await this.api.merchants(user);
    const merchantId = merchantOf(merchants, query.merchantId);
    const page = pageOf(query.page);
    const [found, locale] = await Promise.all([this.api.payouts(user, { merchantId, page, limit: 25 }), this.api.localeOf(merchantId)]);
    response.set(DASHBOARD_HEADERS).send(
      payoutsPage(languageOf(request), {
        user,
        csrfToken,
        merchants,
        merchantId,
        rows: found.rows,
        page,
        pageCount: found.pageCount,
        timeZone: locale?.timeZone ?? 'UTC',
      }),
    );
  }

  @Get(':id')
  async show(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Query('done') done: unknown,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const payout = await this.api.payout(user, id);
    if (!payout) throw new PageError(404, 'notFound');
    const [swept, locale] = await Promise.all([
      this.api.balanceTransactions(user, { merchantId: payout.merchantId, payoutId: payout.payoutId, page: 1, limit: 100 }),
      this.api.localeOf(payout.merchantId),
    ]);
    response.set(DASHBOARD_HEADERS).send(
      payoutPage(language, {
        user,
        csrfToken,
        payout,
        swept: swept.rows,
        total: swept.total,
        timeZone: locale?.timeZone ?? 'UTC',
        notice: done === 'requested' ? TEXTS[language].payoutRequested : undefined,
      }),
    );
  }

  /** What the payout swept, as the API's CSV, streamed through. */
  @Get(':id/transactions.csv')
  async csv(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const { user } = request.dashboard!;
    const payout = await this.api.payout(user, id);
    if (!payout) throw new PageError(404, 'notFound');
    const stream = await this.api.payoutTransactionsCsv(payout.payoutId);
    response.status(200).set({
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="payout-${payout.payoutId}.csv"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    Readable.fromWeb(stream as import('node:stream/web').ReadableStream).pipe(response);
  }
}

/** Reconciliation runs of the processors' reports and their discrepancies. */
@Controller('reconciliation')
export class ReconciliationController {
  constructor(private readonly api: PayinsApi) {}

  @Get()
  async list(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const merchants = await this.api.merchants(user);
    const merchantId = merchantOf(merchants, query.merchantId);
    const [runs, locale] = await Promise.all([
      this.api.reconciliationRuns(user, { page: pageOf(query.page), merchantId }),
      this.api.localeOf(merchantId),
    ]);
    response
      .set(DASHBOARD_HEADERS)
      .send(
        reconciliationPage(languageOf(request), { user, csrfToken, merchants, merchantId, runs: runs.rows, timeZone: locale?.timeZone }),
      );
  }

  @Get(':id')
  async show(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const run = await this.api.reconciliationRun(user, id);
    if (!run) throw new PageError(404, 'notFound');
    response.set(DASHBOARD_HEADERS).send(reconciliationRunPage(languageOf(request), { user, csrfToken, run }));
  }
}
