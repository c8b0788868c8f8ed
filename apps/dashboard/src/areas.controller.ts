import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity, DashboardUser, IdentityError, isRole } from '@pcs/dashboard-identity';
import type { Response } from 'express';
import { linksPage, merchantsPage, payersPage, teamPage, webhooksPage } from './pages/areas';
import { DASHBOARD_HEADERS } from './pages/layout';
import { fill, TEXTS } from './pages/texts';
import { CreateLink, Merchant, Payins, PayinsApiError, UUID } from './payins';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, pageOf, Redirect, Requires } from './web';

/** A typed text field: trimmed, at most `max` characters, without control characters (a NUL is refused by the API and stored by no one). */
const text = (value: unknown, max: number) =>
  typeof value === 'string'
    ? [...value]
        .filter((c) => c >= ' ' && c !== '\u007f')
        .join('')
        .trim()
        .slice(0, max)
    : '';
const apiProblem = (error: unknown, language: 'es' | 'en'): string => {
  if (error instanceof PayinsApiError && error.status < 500 && error.status !== 429)
    return error.body?.showMessage?.[language === 'es' ? 'ES' : 'EN'] ?? error.message;
  throw error;
};

/** Whose: the person's own merchant, or (for the whole business) one of `merchants`, the business's. */
function merchantAmong(user: DashboardUser, merchants: readonly Merchant[], merchantId: unknown): string | undefined {
  // A person of one merchant: that merchant, whatever else was asked for (and nothing for another's id).
  if (user.merchantId) return merchantId === undefined || merchantId === '' || merchantId === user.merchantId ? user.merchantId : undefined;
  if (typeof merchantId !== 'string' || !UUID.test(merchantId)) return undefined;
  return merchants.some((m) => m.merchantId === merchantId) ? merchantId : undefined;
}

/** `merchantAmong` the business's merchants, asked of the API (only when the person is not of one merchant). */
async function ownMerchant(payins: Payins, request: DashboardRequest, merchantId: unknown): Promise<string | undefined> {
  const { user } = request.dashboard!;
  return merchantAmong(user, user.merchantId ? [] : await payins.merchants(user), merchantId);
}

/** Links (operations 29–35 through the API): list, create, share by email, delete. */
@Controller('links')
export class LinksController {
  constructor(
    private readonly payins: Payins,
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
      this.payins.links(user, { page: pageNumber, status: linkStatus }),
      this.payins.merchants(user),
    ]);
    const formMerchantId = merchantAmong(user, merchants, query.merchantId);
    const processors = formMerchantId ? await this.payins.processorsOf(formMerchantId) : [];
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
  async create(@Req() request: DashboardRequest, @Res() response: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const merchantId = await ownMerchant(this.payins, request, body.merchantId);
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
      const created = await this.payins.createLink(link);
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
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const { user } = request.dashboard!;
    if (!(await this.payins.link(user, id))) throw new PageError(404, 'notFound');
    const receiverEmail = text(body.receiverEmail, 254);
    const audit = { ...actorOf(request), action: 'link:share', target: id };
    try {
      await this.payins.shareLink(id, receiverEmail, text(body.receiverName, 128));
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
    if (!(await this.payins.link(user, id))) throw new PageError(404, 'notFound');
    await this.payins.deleteLink(id);
    await this.identity.audit({
      ...actorOf(request),
      action: 'link:delete',
      target: id,
      result: 'succeeded',
    });
    throw new Redirect('/links?done=deleted');
  }
}

/** Payers: search by name, document, email or phone (operation 9's searchTerm). */
@Controller('payers')
export class PayersController {
  constructor(private readonly payins: Payins) {}

  @Get()
  async search(@Req() request: DashboardRequest, @Res() response: Response, @Query() query: Record<string, unknown>): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const searchTerm = text(query.searchTerm, 100) || undefined;
    const pageNumber = pageOf(query.page);
    const found = await this.payins.payers(user, { page: pageNumber, searchTerm });
    response.set(DASHBOARD_HEADERS).send(
      payersPage(languageOf(request), {
        user,
        csrfToken,
        payers: found.rows,
        searchTerm,
        pageNumber,
        pageCount: found.pageCount,
        total: found.total,
      }),
    );
  }
}

/** Webhooks: the endpoints, the event log (by delivery), and redelivery (admins). */
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly payins: Payins,
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
      this.payins.webhookEndpoints(user),
      this.payins.events(user, { page: pageNumber, delivered }),
      this.payins.merchants(user),
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
  async addEndpoint(@Req() request: DashboardRequest, @Res() response: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const { user } = request.dashboard!;
    const t = TEXTS[languageOf(request)];
    const merchantId = user.merchantId ?? (body.merchantId ? await ownMerchant(this.payins, request, body.merchantId) : undefined);
    if (body.merchantId && !merchantId) throw new PageError(404, 'notFound');
    const url = text(body.url, 2048);
    const audit = {
      ...actorOf(request),
      action: 'webhook-endpoint:create',
      target: url.slice(0, 200),
    };
    try {
      const created = await this.payins.createEndpoint({
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
      !(await this.payins.webhookEndpoints(user)).some((e) => e.webhookEndpointId === id)
    ) {
      throw new PageError(404, 'notFound');
    }
    if (change === 'delete') await this.payins.deleteEndpoint(id);
    else await this.payins.updateEndpoint(id, { disabled: change === 'disable' });
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
    const event = await this.payins.event(user, eventId);
    if (!event) throw new PageError(404, 'notFound');
    await this.payins.redeliver(eventId);
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

/** Merchants and their configuration (admins change it). */
@Controller('merchants')
export class MerchantsController {
  constructor(
    private readonly payins: Payins,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  async show(@Req() request: DashboardRequest, @Res() response: Response, @Query('done') done: unknown): Promise<void> {
    await this.render(request, response, done === 'configured' ? TEXTS[languageOf(request)].configurationSaved : undefined);
  }

  private async render(request: DashboardRequest, response: Response, notice?: string, problem?: string, status = 200): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const merchants = await this.payins.merchants(user);
    const configurations = new Map(
      await Promise.all(merchants.map(async (m) => [m.merchantId, await this.payins.configurationOf(m.merchantId)] as const)),
    );
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(merchantsPage(languageOf(request), { user, csrfToken, merchants, configurations, notice, problem }));
  }

  @Post(':id/configuration')
  @HttpCode(200)
  @Requires('configure-merchants', 'merchant:configure')
  async configure(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Body() body: Record<string, unknown>,
  ): Promise<void> {
    const merchantId = await ownMerchant(this.payins, request, id);
    if (!merchantId) throw new PageError(404, 'notFound');
    const emails = text(body.notificationEmails, 1000)
      .split(/[,;\s]+/)
      .filter(Boolean)
      .slice(0, 20);
    const configuration = {
      ...(text(body.shortName, 32) ? { shortName: text(body.shortName, 32) } : {}),
      notificationEmails: emails,
      paymentSuccessNotification: body.paymentSuccessNotification === 'on',
      paymentErrorNotification: body.paymentErrorNotification === 'on',
      fastPaymentsEnabled: body.fastPaymentsEnabled === 'on',
    };
    const audit = { ...actorOf(request), action: 'merchant:configure', target: merchantId };
    try {
      await this.payins.configure(merchantId, configuration);
    } catch (error) {
      const problem = apiProblem(error, languageOf(request));
      await this.identity.audit({ ...audit, result: 'refused', detail: { errorId: (error as PayinsApiError).body?.errorId } });
      await this.render(request, response, undefined, problem, 400);
      return;
    }
    await this.identity.audit({ ...audit, result: 'succeeded', detail: configuration });
    throw new Redirect('/merchants?done=configured');
  }
}

/** The team: the business's people, adding one, and a new password for one (admins of the whole business). */
@Controller('team')
export class TeamController {
  constructor(
    private readonly payins: Payins,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  @Requires('manage-users', 'team:read')
  async show(@Req() request: DashboardRequest, @Res() response: Response): Promise<void> {
    await this.render(request, response);
  }

  private async render(request: DashboardRequest, response: Response, notice?: string, problem?: string, status = 200): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    if (user.merchantId) throw new PageError(403, 'forbidden');
    const [people, merchants, credentials] = await Promise.all([
      this.identity.usersOf(user.businessId),
      this.payins.merchants(user),
      this.payins.credentials(),
    ]);
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(teamPage(languageOf(request), { user, csrfToken, people, merchants, credentials, notice, problem }));
  }

  @Post()
  @HttpCode(200)
  @Requires('manage-users', 'user:create')
  async add(@Req() request: DashboardRequest, @Res() response: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const { user } = request.dashboard!;
    if (user.merchantId) throw new PageError(403, 'forbidden');
    const t = TEXTS[languageOf(request)];
    const merchantId =
      body.merchantId === '' || body.merchantId === undefined ? null : await ownMerchant(this.payins, request, body.merchantId);
    if (merchantId === undefined || !isRole(body.role)) throw new PageError(400, 'unreadable');
    const audit = {
      ...actorOf(request),
      action: 'user:create',
      target: text(body.email, 200),
    };
    try {
      const created = await this.identity.createUser({
        businessId: user.businessId,
        merchantId,
        email: text(body.email, 254),
        role: body.role,
      });
      await this.identity.audit({ ...audit, result: 'succeeded', detail: { role: created.role, merchantId } });
      // The password is shown once, on this answer (not in a URL, not in the audit log).
      await this.render(request, response, fill(t.personAdded, { password: created.password }));
    } catch (error) {
      if (!(error instanceof IdentityError)) throw error;
      await this.identity.audit({ ...audit, result: 'refused', detail: { reason: error.message } });
      await this.render(request, response, undefined, error.message, 400);
    }
  }

  /** Unlocks a person locked out by ten failures (contract §22), at once; audited. */
  @Post(':id/unlock')
  @HttpCode(200)
  @Requires('manage-users', 'user:unlock')
  async unlock(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const person = await this.member(request, id);
    await this.identity.unlock(person.userId);
    await this.identity.audit({ ...actorOf(request), action: 'user:unlock', target: person.email, result: 'succeeded' });
    await this.render(request, response, fill(TEXTS[languageOf(request)].unlocked, { email: person.email }));
  }

  /** Makes a person enrol a second factor again (a lost phone); their sessions end; audited. */
  @Post(':id/reset-mfa')
  @HttpCode(200)
  @Requires('manage-users', 'user:reset-mfa')
  async resetMfa(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const person = await this.member(request, id);
    await this.identity.resetSecondFactor(person.userId);
    await this.identity.audit({ ...actorOf(request), action: 'user:reset-mfa', target: person.email, result: 'succeeded' });
    await this.render(request, response, fill(TEXTS[languageOf(request)].mfaReset, { email: person.email }));
  }

  /** Another person of the admin's business (never themselves: their own are the account page's), or 404. */
  private async member(request: DashboardRequest, id: string) {
    const { user } = request.dashboard!;
    if (user.merchantId || !UUID.test(id) || id === user.userId) throw new PageError(404, 'notFound');
    const person = await this.identity.memberOf(user.businessId, id);
    if (!person) throw new PageError(404, 'notFound');
    return person;
  }

  @Post(':id/reset-password')
  @HttpCode(200)
  @Requires('manage-users', 'user:reset-password')
  async reset(@Req() request: DashboardRequest, @Res() response: Response, @Param('id') id: string): Promise<void> {
    const { user } = request.dashboard!;
    if (user.merchantId || !UUID.test(id) || id === user.userId) throw new PageError(404, 'notFound');
    const reset = await this.identity.resetPasswordOf(user.businessId, id);
    if (!reset) throw new PageError(404, 'notFound');
    await this.identity.audit({
      ...actorOf(request),
      action: 'user:reset-password',
      target: reset.email,
      result: 'succeeded',
    });
    await this.render(request, response, fill(TEXTS[languageOf(request)].passwordReset, { email: reset.email, password: reset.password }));
  }
}
