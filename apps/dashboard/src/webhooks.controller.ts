import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { FormPipe, WebhookEndpointForm } from './forms';
import type { Response } from 'express';
import { webhooksPage } from './pages/areas';
import { DASHBOARD_HEADERS } from './pages/layout';
import { fill, TEXTS } from './pages/texts';
import { PayinsApi, PayinsApiError } from './payins-api';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, pageOf, Redirect, Requires } from './web';
import { apiProblem, ownMerchant, text } from './area-forms';

/** Webhooks: the endpoints, the event log (by delivery), and redelivery (admins). */
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly api: PayinsApi,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  async show(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const t = TEXTS[languageOf(request)];
    const notice = query.done === 'redeliver' ? t.redelivered : query.done === 'endpoint' ? t.endpointChanged : undefined;
    await this.render(request, response, query, notice);
  }

  private async render(
    request: DashboardRequest,
    response: Response,
    query: Record<string, unknown>,
    notice?: string,
    problem?: string,
    status = 200,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const delivered = query.delivered === 'true' || query.delivered === 'false' ? query.delivered : undefined;
    const pageNumber = pageOf(query.page);
    const [endpoints, events, merchants] = await Promise.all([
      this.api.webhookEndpoints(user),
      this.api.events(user, { page: pageNumber, delivered }),
      this.api.merchants(user),
    ]);
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(
        webhooksPage(languageOf(request), {
          user,
          csrfToken,
          endpoints,
          events: events.rows,
          delivered,
          pageNumber,
          pageCount: events.pageCount,
          merchants,
          notice,
          problem,
        }),
      );
  }

  /** A new endpoint; its signing secret is shown once, on this answer. */
  @Post('endpoints')
  @HttpCode(200)
  @Requires('manage-webhooks', 'webhook-endpoint:create')
  async addEndpoint(@Req() request: DashboardRequest, @Res() response: Response, @Body(FormPipe) body: WebhookEndpointForm): Promise<void> {
    const { user } = request.dashboard!;
    const t = TEXTS[languageOf(request)];
    const merchantId = user.merchantId ?? (body.merchantId ? await ownMerchant(this.api, request, body.merchantId) : undefined);
    if (body.merchantId && !merchantId) throw new PageError(404, 'notFound');
    const url = text(body.url, 2048);
    const audit = {
      ...actorOf(request),
      action: 'webhook-endpoint:create',
      target: url.slice(0, 200),
    };
    try {
      const created = await this.api.createEndpoint({
        url,
        ...(text(body.description, 256) ? { description: text(body.description, 256) } : {}),
        ...(merchantId ? { merchantId } : {}),
      });
      await this.identity.audit({ ...audit, result: 'succeeded', detail: { webhookEndpointId: created.webhookEndpointId } });
      await this.render(request, response, {}, fill(t.endpointAdded, { secret: created.secret }));
    } catch (error) {
      const problem = apiProblem(error, languageOf(request));
      await this.identity.audit({ ...audit, result: 'refused', detail: { errorId: (error as PayinsApiError).body?.errorId } });
      await this.render(request, response, {}, undefined, problem, 400);
    }
  }

  @Post('endpoints/:id/:change')
  @Requires('manage-webhooks', 'webhook-endpoint:change')
  async changeEndpoint(@Req() request: DashboardRequest, @Param('id') id: string, @Param('change') change: string): Promise<never> {
    const { user } = request.dashboard!;
    if (
      !['enable', 'disable', 'delete'].includes(change) ||
      !(await this.api.webhookEndpoints(user)).some((e) => e.webhookEndpointId === id)
    ) {
      throw new PageError(404, 'notFound');
    }
    if (change === 'delete') await this.api.deleteEndpoint(id);
    else await this.api.updateEndpoint(id, { disabled: change === 'disable' });
    await this.identity.audit({
      ...actorOf(request),
      action: `webhook-endpoint:${change}`,
      target: id,
      result: 'succeeded',
    });
    throw new Redirect('/webhooks?done=endpoint');
  }

  @Post('events/:eventId/redeliver')
  @Requires('manage-webhooks', 'event:redeliver')
  async redeliver(@Req() request: DashboardRequest, @Param('eventId') eventId: string): Promise<never> {
    const { user } = request.dashboard!;
    const event = await this.api.event(user, eventId);
    if (!event) throw new PageError(404, 'notFound');
    await this.api.redeliver(eventId);
    await this.identity.audit({
      ...actorOf(request),
      action: 'event:redeliver',
      target: eventId,
      result: 'succeeded',
      detail: { type: event.type },
    });
    throw new Redirect('/webhooks?done=redeliver');
  }
}
