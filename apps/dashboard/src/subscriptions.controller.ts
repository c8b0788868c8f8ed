import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import type { Response } from 'express';
import { apiTextOf } from './area-forms';
import { CancelSubscriptionForm, FormPipe } from './forms';
import { DASHBOARD_HEADERS } from './pages/layout';
import { confirmCancelPage, subscriptionPage, subscriptionsPage } from './pages/subscriptions';
import { fill, TEXTS } from './pages/texts';
import { PayinsApi, PayinsApiError, Subscription, UUID } from './payins-api';
import { merchantOf } from './settlement.controller';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, pageOf, Redirect, Requires } from './web';

const STATUSES = ['TRIALING', 'ACTIVE', 'PAST_DUE', 'UNPAID', 'CANCELED', 'PAUSED'] as const;
const NOTICES = { paused: 'subscriptionPaused', resumed: 'subscriptionResumed', canceled: 'subscriptionCanceled' } as const;

/**
 * Subscriptions (contract §31), read through the payins API: the list by status, a payer's history (the list
 * narrowed to the payer), and one subscription with its invoices; for operators and admins, pausing, resuming and
 * canceling it (now or at the period's end, after a confirmation). Every change is audited.
 */
@Controller('subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly api: PayinsApi,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  async list(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const merchants = await this.api.merchants(user);
    const merchantId = merchantOf(merchants, query.merchantId);
    const status = STATUSES.find((s) => s === query.status);
    const payerId = typeof query.payerId === 'string' && UUID.test(query.payerId) ? query.payerId : undefined;
    const page = pageOf(query.page);
    const [found, locale] = await Promise.all([
      this.api.subscriptions(user, { merchantId, status, payerId, page, limit: 25 }),
      this.api.localeOf(merchantId),
    ]);
    response.set(DASHBOARD_HEADERS).send(
      subscriptionsPage(languageOf(request), {
        user,
        csrfToken,
        merchants,
        merchantId,
        status,
        payerId,
        rows: found.rows,
        page,
        pageCount: found.pageCount,
        timeZone: locale?.timeZone,
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
    const found = await this.api.subscription(user, id);
    if (!found) throw new PageError(404, 'notFound');
    const notice = typeof done === 'string' && done in NOTICES ? TEXTS[language][NOTICES[done as keyof typeof NOTICES]] : undefined;
    response.set(DASHBOARD_HEADERS).send(subscriptionPage(language, { user, csrfToken, ...found, notice }));
  }

  @Post(':id/pause')
  @HttpCode(200)
  @Requires('manage-subscriptions', 'subscription:pause')
  async pause(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const subscription = await this.own(request, id);
    await this.change(request, response, subscription, 'subscription:pause', {}, 'paused', () =>
      this.api.pauseSubscription(subscription.subscriptionId),
    );
  }

  @Post(':id/resume')
  @HttpCode(200)
  @Requires('manage-subscriptions', 'subscription:resume')
  async resume(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const subscription = await this.own(request, id);
    await this.change(request, response, subscription, 'subscription:resume', {}, 'resumed', () =>
      this.api.resumeSubscription(subscription.subscriptionId),
    );
  }

  /** Canceling ends the payer's charges: the first post asks, the confirmed one cancels (now, or at the period's end). */
  @Post(':id/cancel')
  @HttpCode(200)
  @Requires('manage-subscriptions', 'subscription:cancel')
  async cancel(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Body(FormPipe) body: CancelSubscriptionForm,
  ): Promise<void> {
    const subscription = await this.own(request, id);
    const when = body.when === 'end' ? 'end' : 'now';
    if (body.confirmed !== 'yes') {
      const { user, csrfToken } = request.dashboard!;
      response.set(DASHBOARD_HEADERS).send(confirmCancelPage(languageOf(request), { user, csrfToken, subscription, when }));
      return;
    }
    await this.change(request, response, subscription, 'subscription:cancel', { atPeriodEnd: when === 'end' }, 'canceled', () =>
      this.api.cancelSubscription(subscription.subscriptionId, when === 'end'),
    );
  }

  /** The subscription, when it is the person's to see; 404 otherwise. */
  private async own(request: DashboardRequest, id: string): Promise<Subscription> {
    const found = await this.api.subscription(request.dashboard!.user, id);
    if (!found) throw new PageError(404, 'notFound');
    return found.subscription;
  }

  /** Does it at the API and audits the outcome; a refusal is shown on the subscription's page with the API's reason. */
  private async change(
    request: DashboardRequest,
    response: Response,
    subscription: Subscription,
    action: string,
    detail: Record<string, unknown>,
    done: keyof typeof NOTICES,
    call: () => Promise<Subscription>,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const audit = { ...actorOf(request), action, target: subscription.subscriptionId };
    try {
      const after = await call();
      await this.identity.audit({ ...audit, result: 'succeeded', detail: { ...detail, status: after.status } });
    } catch (error) {
      const refused = error instanceof PayinsApiError && error.status < 500 && error.status !== 429;
      await this.identity.audit({
        ...audit,
        result: refused ? 'refused' : 'failed',
        detail: { ...detail, errorId: error instanceof PayinsApiError ? error.body?.errorId : undefined },
      });
      if (!refused) throw error;
      const reason = error.body?.showMessage?.[apiTextOf(language)] ?? '';
      const now = await this.api.subscription(user, subscription.subscriptionId);
      if (!now) throw new PageError(404, 'notFound');
      response
        .status(409)
        .set(DASHBOARD_HEADERS)
        .send(subscriptionPage(language, { user, csrfToken, ...now, problem: fill(TEXTS[language].subscriptionRefused, { reason }) }));
      return;
    }
    throw new Redirect(`/subscriptions/${subscription.subscriptionId}?done=${done}`);
  }
}
