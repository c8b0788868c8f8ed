import { Body, Controller, Get, Headers, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import { PayerPage, Public } from '@pcs/http';
import { FormTokens, PAGE_HEADERS, payerLanguage, renderStalePage } from '@pcs/pages';
import { CardSetup, CardSetupService, PixSetupService } from '@pcs/payments';
import * as crypto from 'node:crypto';
import type { Response } from 'express';
import { renderSetupPage, SetupForm, SetupProblem, setupPageHeaders } from './setup-page.view';

/** A processor's card token as its fields answer it (Mercado Pago: 32 hex characters; letters, digits, - and _ here). */
const CARD_TOKEN = /^[0-9A-Za-z_-]{8,128}$/;

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
 * prefers; the card fields of the processor that keeps the card (Mercado Pago's Secure Fields, whose card token is all
 * the form posts), or the sandbox's (BIN, last four, expiry); or Pix Automático's terms and the way to the bank's app. Its form is protected against
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
    private readonly pixSetups: PixSetupService,
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
    // Pix Automático's page reads its authorisation from the processor (the payer back from the bank's app).
    const page = UUID.test(id) ? await this.pixSetups.page(id.toLowerCase()) : ({ kind: 'GONE' } as const);
    const nonce = this.forms.nonceOf(cookie) ?? this.forms.newNonce();
    const scriptNonce = crypto.randomBytes(16).toString('base64');
    response
      .status(page.kind === 'GONE' ? 404 : 200)
      .set(setupPageHeaders(page, scriptNonce))
      .cookie(this.forms.cookie, nonce, this.forms.cookieOptions(this.secure))
      .send(renderSetupPage(page, language, page.kind === 'GONE' ? '' : this.forms.token(id.toLowerCase(), nonce), {}, [], scriptNonce));
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
    // Pix Automático: the payer asks to authorise; on to the processor's journey (the bank's app).
    if (body.pix === 'authorise') {
      const step = await this.pixSetups.authorise(setupId);
      if (step.kind === 'AUTHORISE') {
        response.set('Cache-Control', 'no-store').redirect(303, step.url);
        return;
      }
      if (step.kind === 'DONE') return this.finished(response, setupId, step.setup);
      const page = await this.setups.page(setupId);
      response
        .status(step.kind === 'REFUSED' ? 422 : page.kind === 'GONE' ? 404 : 200)
        .set(setupPageHeaders(page, ''))
        .send(renderSetupPage(page, language, this.forms.token(setupId, nonce!), {}, step.kind === 'REFUSED' ? ['pixRefused'] : []));
      return;
    }
    // A processor's fields posted its token for the card (never the card itself).
    if (body.processor !== undefined) {
      const processor = text(body.processor, 32) ?? '';
      const cardToken = text(body.cardToken, 128) ?? '';
      const result =
        /^[A-Z_]{2,32}$/.test(processor) && CARD_TOKEN.test(cardToken)
          ? await this.setups.completeWithToken(setupId, { processor, token: cardToken })
          : ({ refused: 'cardNotSaved' } as const);
      if (result && 'refused' in result) {
        const page = await this.setups.page(setupId);
        const scriptNonce = crypto.randomBytes(16).toString('base64');
        response
          .status(page.kind === 'FORM' ? 422 : page.kind === 'GONE' ? 404 : 200)
          .set(setupPageHeaders(page, scriptNonce))
          .send(renderSetupPage(page, language, this.forms.token(setupId, nonce!), {}, [result.refused], scriptNonce));
        return;
      }
      return this.finished(response, setupId, result);
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
        .set(setupPageHeaders(page, ''))
        .send(renderSetupPage(page, language, this.forms.token(setupId, nonce!), form, card.problems));
      return;
    }
    this.finished(response, setupId, await this.setups.complete(setupId, { ...card, countryProcessorId: form.countryProcessorId ?? '' }));
  }

  /**
   * Saved: to the merchant's returnUrl with the setup's id. Completed before, expired, or a method no longer offered:
   * the page says where things stand.
   */
  private finished(response: Response, setupId: string, completed: CardSetup | null): void {
    const s = completed?.snapshot();
    const next = s ? `${s.returnUrl}${s.returnUrl.includes('?') ? '&' : '?'}setupId=${s.setupId}` : `/setup/${setupId}`;
    response.set('Cache-Control', 'no-store').redirect(303, next);
  }
}
