import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { FormPipe, LinkForm, LinkShareForm } from './forms';
import type { Response } from 'express';
import { linksPage } from './pages/areas';
import { DASHBOARD_HEADERS } from './pages/layout';
import { TEXTS } from './pages/texts';
import { CreateLink, PayinsApi, PayinsApiError, UUID } from './payins-api';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, pageOf, Redirect, Requires } from './web';
import { apiProblem, merchantAmong, ownMerchant, text } from './area-forms';

/** Links (operations 29–35 through the API): list, create, share by email, delete. */
@Controller('links')
export class LinksController {
  constructor(
    private readonly api: PayinsApi,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  async list(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    await this.render(request, response, query);
  }

  private async render(
    request: DashboardRequest,
    response: Response,
    query: Record<string, unknown>,
    status = 200,
    problem?: string,
  ): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const language = languageOf(request);
    const t = TEXTS[language];
    const linkStatus = ['ACTIVE', 'USED', 'EXPIRED'].find((s) => s === query.status) as 'ACTIVE' | 'USED' | 'EXPIRED' | undefined;
    const pageNumber = pageOf(query.page);
    const [links, merchants] = await Promise.all([
      this.api.links(user, { page: pageNumber, status: linkStatus }),
      this.api.merchants(user),
    ]);
    const formMerchantId = merchantAmong(user, merchants, query.merchantId);
    const processors = formMerchantId ? await this.api.processorsOf(formMerchantId) : [];
    const done = { created: t.linkCreated, shared: t.linkShared, deleted: t.linkDeleted }[String(query.done)];
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(
        linksPage(language, {
          user,
          csrfToken,
          links,
          pageNumber,
          status: linkStatus,
          merchants,
          formMerchantId,
          processors,
          notice: done,
          problem,
        }),
      );
  }

  @Post()
  @HttpCode(200)
  @Requires('manage-links', 'link:create')
  async create(@Req() request: DashboardRequest, @Res() response: Response, @Body(FormPipe) body: LinkForm): Promise<void> {
    const merchantId = await ownMerchant(this.api, request, body.merchantId);
    if (!merchantId) throw new PageError(404, 'notFound');
    const processors = (Array.isArray(body.processor) ? body.processor : [body.processor]).filter(
      (p): p is string => typeof p === 'string' && UUID.test(p),
    );
    const number = (value: unknown) => (typeof value === 'string' && /^\d{1,13}(\.\d{1,4})?$/.test(value.trim()) ? Number(value) : NaN);
    const link: CreateLink = {
      merchantId,
      amount: number(body.amount),
      vatPercentage: number(body.vatPercentage),
      currency: text(body.currency, 3) as CreateLink['currency'],
      country: text(body.country, 3) as CreateLink['country'],
      merchantCountryProcessors: processors,
      ...(text(body.description, 255) ? { description: text(body.description, 255) } : {}),
      ...(text(body.reference, 128) ? { reference: text(body.reference, 128) } : {}),
    };
    const audit = { ...actorOf(request), action: 'link:create' };
    try {
      const created = await this.api.createLink(link);
      await this.identity.audit({
        ...audit,
        target: created.linkId,
        result: 'succeeded',
        detail: { amount: created.amount, currency: created.currency },
      });
    } catch (error) {
      const problem = apiProblem(error, languageOf(request));
      await this.identity.audit({ ...audit, result: 'refused', detail: { errorId: (error as PayinsApiError).body?.errorId } });
      await this.render(request, response, { merchantId }, 400, problem);
      return;
    }
    throw new Redirect('/links?done=created');
  }

  @Post(':id/share')
  @HttpCode(200)
  @Requires('manage-links', 'link:share')
  async share(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Body(FormPipe) body: LinkShareForm,
  ): Promise<void> {
    const { user } = request.dashboard!;
    if (!(await this.api.link(user, id))) throw new PageError(404, 'notFound');
    const receiverEmail = text(body.receiverEmail, 254);
    const audit = { ...actorOf(request), action: 'link:share', target: id };
    try {
      await this.api.shareLink(id, receiverEmail, text(body.receiverName, 128));
      await this.identity.audit({ ...audit, result: 'succeeded', detail: { receiverEmail } });
    } catch (error) {
      const problem = apiProblem(error, languageOf(request));
      await this.identity.audit({ ...audit, result: 'refused', detail: { errorId: (error as PayinsApiError).body?.errorId } });
      await this.render(request, response, {}, 400, problem);
      return;
    }
    throw new Redirect('/links?done=shared');
  }

  @Post(':id/delete')
  @Requires('manage-links', 'link:delete')
  async remove(@Req() request: DashboardRequest, @Param('id') id: string): Promise<never> {
    const { user } = request.dashboard!;
    if (!(await this.api.link(user, id))) throw new PageError(404, 'notFound');
    await this.api.deleteLink(id);
    await this.identity.audit({
      ...actorOf(request),
      action: 'link:delete',
      target: id,
      result: 'succeeded',
    });
    throw new Redirect('/links?done=deleted');
  }
}
