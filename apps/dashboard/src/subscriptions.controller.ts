import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DASHBOARD_HEADERS } from './pages/layout';
import { subscriptionPage, subscriptionsPage } from './pages/subscriptions';
import { PayinsApi, UUID } from './payins-api';
import { merchantOf } from './settlement.controller';
import type { DashboardRequest } from './web';
import { languageOf, PageError, pageOf } from './web';

const STATUSES = ['TRIALING', 'ACTIVE', 'PAST_DUE', 'UNPAID', 'CANCELED', 'PAUSED'] as const;

/**
 * Subscriptions (contract §31), read through the payins API: the list by status, a payer's history (the list
 * narrowed to the payer), and one subscription with its invoices. Everyone signed in may read them.
 */
@Controller('subscriptions')
export class SubscriptionsController {
  constructor(private readonly api: PayinsApi) {}

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
  async show(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const found = await this.api.subscription(user, id);
    if (!found) throw new PageError(404, 'notFound');
    response.set(DASHBOARD_HEADERS).send(subscriptionPage(languageOf(request), { user, csrfToken, ...found }));
  }
}
