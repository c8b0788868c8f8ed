import { Body, Controller, Get, Headers, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import { PayerPage, Public } from '@pcs/http';
import { FormTokens, PAGE_HEADERS, payerLanguage, renderStalePage } from '@pcs/pages';
import { CardSetupService } from '@pcs/payments';
import type { Response } from 'express';
import { renderSetupPage, SetupForm, SetupProblem } from './setup-page.view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' ? value.trim().slice(0, max) : undefined);

/** The card parts a form sent, read strictly: the BIN, the last four, and an expiry MM/YY not yet past. */
export function cardOf(
  form: SetupForm,
  now = new Date(),
): { bin: string; last4: string; expMonth: number; expYear: number } | { problems: SetupProblem[] } {
  const problems: SetupProblem[] = [];
  if (!/^\d{6}$/.test(form.bin ?? '')) problems.push('badBin');
  if (!/^\d{4}$/.test(form.last4 ?? '')) problems.push('badLast4');
  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(form.expiry ?? '');
  const month = expiry ? Number(expiry[1]) : 0;
  const year = expiry ? 2000 + Number(expiry[2]) : 0;
  // Usable through the last day of its month.
  if (!expiry || month < 1 || month > 12 || Date.UTC(year, month, 1) <= now.getTime()) problems.push('badExpiry');
  return problems.length ? { problems } : { bin: form.bin!, last4: form.last4!, expMonth: month, expYear: year };
}

/**
 * The card setup page (contract §31): public, server-rendered, in Spanish, English or Portuguese as the browser
 * prefers; the processor's card fields (the sandbox's: BIN, last four, expiry). Its form is protected against
 * cross-site submission as the pay page's is (a SameSite=Strict cookie and an HMAC of it with the setup's id).
 */
@ApiExcludeController()
@PayerPage()
@Controller('setup')
export class SetupPageController {
  private readonly forms: FormTokens;
  private readonly secure: boolean;

  constructor(
    private readonly setups: CardSetupService,
    settings: RuntimeSettings,
  ) {
    this.forms = new FormTokens(settings.secretsMasterKey, 'pcs_setup', '/setup');
    this.secure = settings.publicBaseUrl.startsWith('https:');
  }

  @Public()
  @Get(':setupId')
  async page(
    @Param('setupId') id: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const language = payerLanguage(acceptLanguage);
    const page = UUID.test(id) ? await this.setups.page(id.toLowerCase()) : ({ kind: 'GONE' } as const);
    const nonce = this.forms.nonceOf(cookie) ?? this.forms.newNonce();
    response
      .status(page.kind === 'GONE' ? 404 : 200)
      .set(PAGE_HEADERS)
      .cookie(this.forms.cookie, nonce, this.forms.cookieOptions(this.secure))
      .send(renderSetupPage(page, language, page.kind === 'GONE' ? '' : this.forms.token(id.toLowerCase(), nonce)));
  }

  @Public()
  @Post(':setupId')
  async save(
    @Param('setupId') id: string,
    @Body() body: Record<string, unknown>,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const language = payerLanguage(acceptLanguage);
    const setupId = UUID.test(id) ? id.toLowerCase() : null;
    const nonce = this.forms.nonceOf(cookie);
    if (!setupId || !this.forms.verify(setupId, nonce, body?.token)) {
      response.status(403).set(PAGE_HEADERS).send(renderStalePage(language));
      return;
    }
    const form: SetupForm = {
      countryProcessorId: text(body.countryProcessorId, 36),
      holder: text(body.holder, 64),
      bin: text(body.bin, 6),
      last4: text(body.last4, 4),
      expiry: text(body.expiry, 7),
    };
    const card = cardOf(form);
    if ('problems' in card) {
      const page = await this.setups.page(setupId);
      response
        .status(page.kind === 'FORM' ? 400 : page.kind === 'GONE' ? 404 : 200)
        .set(PAGE_HEADERS)
        .send(renderSetupPage(page, language, this.forms.token(setupId, nonce!), form, card.problems));
      return;
    }
    const completed = await this.setups.complete(setupId, { ...card, countryProcessorId: form.countryProcessorId ?? '' });
    // Saved: to the merchant's returnUrl with the setup's id. Completed before, expired, or a method no longer offered:
    // the page says where things stand.
    const s = completed?.snapshot();
    const next = s ? `${s.returnUrl}${s.returnUrl.includes('?') ? '&' : '?'}setupId=${s.setupId}` : `/setup/${setupId}`;
    response.set('Cache-Control', 'no-store').redirect(303, next);
  }
}
