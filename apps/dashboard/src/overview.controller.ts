import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DASHBOARD_HEADERS } from './pages/layout';
import { overviewPage, SPANS } from './pages/overview';
import { PayinsApi, UUID } from './payins-api';
import type { DashboardRequest } from './web';
import { languageOf } from './web';

/** The overview: collected today and over the span per currency, approval rate, and charts per day and per payment method. */
@Controller('overview')
export class OverviewController {
  constructor(private readonly api: PayinsApi) {}

  @Get()
  async show(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const span = SPANS.find((s) => String(s) === query.span) ?? 30;
    const merchants = await this.api.merchants(user);
    // A merchant of the list only (the person's scope); anything else is all of them.
    const merchantId =
      typeof query.merchantId === 'string' && UUID.test(query.merchantId) && merchants.some((m) => m.merchantId === query.merchantId)
        ? query.merchantId
        : undefined;
    const summary = await this.api.summary(user, span, merchantId);
    response.set(DASHBOARD_HEADERS).send(
      overviewPage(languageOf(request), {
        user,
        csrfToken,
        summary,
        today: new Date().toISOString().slice(0, 10),
        span,
        merchants,
        merchantId,
      }),
    );
  }
}
