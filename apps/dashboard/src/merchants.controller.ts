import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { DashboardIdentity } from '@pcs/dashboard-identity';
import { FormPipe, MerchantConfigurationForm } from './forms';
import type { Response } from 'express';
import { merchantsPage } from './pages/areas';
import { DASHBOARD_HEADERS } from './pages/layout';
import { fill, TEXTS } from './pages/texts';
import { InstallmentPolicy, PayinsApi, PayinsApiError, RoutingRule } from './payins-api';
import type { DashboardRequest } from './web';
import { actorOf, languageOf, PageError, Redirect, Requires } from './web';
import { apiProblem, ownMerchant, text } from './area-forms';

/** The countries where a merchant may offer installments, and the currency of each one's least installment (contract §25). */
export const INSTALLMENT_CURRENCIES = { URY: 'UYU', ARG: 'ARS', BRA: 'BRL' } as const;
type InstallmentCountry = keyof typeof INSTALLMENT_CURRENCIES;

/**
 * The installment policy as the form gives it: per country, up to how many, interest-free up to how
 * many, and the least installment in the country's currency. A country left at one installment (or
 * empty) offers none. Null, with the country, when a count is not a whole number or the least
 * installment not an amount.
 */
export function installmentsFrom(body: MerchantConfigurationForm): { policy: InstallmentPolicy } | { invalid: InstallmentCountry } {
  const policy: InstallmentPolicy = {};
  for (const country of Object.keys(INSTALLMENT_CURRENCIES) as InstallmentCountry[]) {
    const max = text(body[`maxInstallments${country}`], 8);
    const free = text(body[`interestFreeUpTo${country}`], 8) || '0';
    const least = text(body[`minInstallmentAmount${country}`], 32);
    if (!/^\d{1,2}$/.test(max || '1') || !/^\d{1,2}$/.test(free) || (least && !/^\d{1,13}(\.\d{1,4})?$/.test(least)))
      return { invalid: country };
    if ((max === '' || max === '1') && free === '0' && !least) continue;
    policy[country] = {
      maxInstallments: Number(max || '1'),
      interestFreeUpTo: Number(free),
      ...(least ? { minInstallmentAmount: { [INSTALLMENT_CURRENCIES[country]]: Number(least) } } : {}),
    };
  }
  return { policy };
}

/**
 * The routing rules as the form gives them: a JSON array of rules (contract §26); absent or blank: not
 * changed; `[]` removes them; anything else that is not an array of objects: invalid.
 */
export function routingFrom(body: MerchantConfigurationForm): RoutingRule[] | null | 'invalid' {
  const raw = text(body.routing, 20_000).trim();
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed) || parsed.some((rule) => typeof rule !== 'object' || rule === null || Array.isArray(rule))) return 'invalid';
    return parsed as RoutingRule[];
  } catch {
    return 'invalid';
  }
}

/** Merchants and their configuration (admins change it). */
@Controller('merchants')
export class MerchantsController {
  constructor(
    private readonly api: PayinsApi,
    private readonly identity: DashboardIdentity,
  ) {}

  @Get()
  async show(@Req() request: DashboardRequest, @Res() response: Response, @Query('done') done: unknown): Promise<void> {
    await this.render(request, response, done === 'configured' ? TEXTS[languageOf(request)].configurationSaved : undefined);
  }

  private async render(request: DashboardRequest, response: Response, notice?: string, problem?: string, status = 200): Promise<void> {
    const { user, csrfToken } = request.dashboard!;
    const merchants = await this.api.merchants(user);
    const configurations = new Map(
      await Promise.all(merchants.map(async (m) => [m.merchantId, await this.api.configurationOf(m.merchantId)] as const)),
    );
    const processors = await this.api.processorsHealth(user);
    // What the card-testing guard of each merchant's public pages refused (contract §30).
    const cardTesting = new Map(
      await Promise.all(merchants.map(async (m) => [m.merchantId, await this.api.cardTestingBlocks(m.merchantId)] as const)),
    );
    response
      .status(status)
      .set(DASHBOARD_HEADERS)
      .send(merchantsPage(languageOf(request), { user, csrfToken, merchants, configurations, processors, cardTesting, notice, problem }));
  }

  @Post(':id/configuration')
  @HttpCode(200)
  @Requires('configure-merchants', 'merchant:configure')
  async configure(
    @Req() request: DashboardRequest,
    @Res() response: Response,
    @Param('id') id: string,
    @Body(FormPipe) body: MerchantConfigurationForm,
  ): Promise<void> {
    const merchantId = await ownMerchant(this.api, request, id);
    if (!merchantId) throw new PageError(404, 'notFound');
    const emails = text(body.notificationEmails, 1000)
      .split(/[,;\s]+/)
      .filter(Boolean)
      .slice(0, 20);
    const audit = { ...actorOf(request), action: 'merchant:configure', target: merchantId };
    const installments = installmentsFrom(body);
    if ('invalid' in installments) {
      await this.identity.audit({ ...audit, result: 'refused', detail: { field: `installments.${installments.invalid}` } });
      const problem = fill(TEXTS[languageOf(request)].installmentsInvalid, { country: installments.invalid });
      await this.render(request, response, undefined, problem, 400);
      return;
    }
    // The routing rules (contract §26), as JSON: the API checks each rule and says what is wrong.
    const routing = routingFrom(body);
    if (routing === 'invalid') {
      await this.identity.audit({ ...audit, result: 'refused', detail: { field: 'routing' } });
      await this.render(request, response, undefined, TEXTS[languageOf(request)].routingInvalid, 400);
      return;
    }
    const configuration = {
      ...(text(body.shortName, 32) ? { shortName: text(body.shortName, 32) } : {}),
      notificationEmails: emails,
      paymentSuccessNotification: body.paymentSuccessNotification === 'on',
      paymentErrorNotification: body.paymentErrorNotification === 'on',
      fastPaymentsEnabled: body.fastPaymentsEnabled === 'on',
      installments: installments.policy,
      ...(routing ? { routing } : {}),
    };
    try {
      await this.api.configure(merchantId, configuration);
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
