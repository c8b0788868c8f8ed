import { Body, Controller, Get, Headers, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import { PayerPage, Public } from '@pcs/http';
import { asLinkId } from '@pcs/links';
import { FormTokens, PAGE_HEADERS, payerDetailsOf, payerLanguage, renderStalePage } from '@pcs/pages';
import { LinkCheckoutService } from '@pcs/payments';
import { DomainError } from '@pcs/kernel';
import type { Request, Response } from 'express';
import { renderPayPage } from './pay-page.view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A link's hosted pay page (contract §12): public, server-rendered, in
 * Spanish, English or Portuguese as the browser prefers. Its method forms change state, so they
 * are protected against cross-site submission: the page sets a SameSite=Strict
 * cookie and each form carries an HMAC of it with the link's id; a post
 * without both (a form on another site) changes nothing.
 */
@ApiExcludeController()
@PayerPage()
@Controller('pay')
export class PayPageController {
  private readonly logger = new Logger('PayPage');
  private readonly forms: FormTokens;
  private readonly base: string;

  constructor(
    private readonly checkout: LinkCheckoutService,
    settings: RuntimeSettings,
  ) {
    this.forms = new FormTokens(settings.secretsMasterKey, 'pcs_pay', '/pay');
    this.base = settings.publicBaseUrl;
  }

  @Public()
  @Get(':linkId')
  async page(
    @Param('linkId') id: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const language = payerLanguage(acceptLanguage);
    const state = UUID.test(id) ? await this.checkout.page(asLinkId(id.toLowerCase())) : ({ kind: 'GONE' } as const);
    const nonce = this.forms.nonceOf(cookie) ?? this.forms.newNonce();
    response
      .status(state.kind === 'GONE' ? 404 : 200)
      .set(PAGE_HEADERS)
      .cookie(this.forms.cookie, nonce, this.forms.cookieOptions(this.base.startsWith('https:')))
      .send(renderPayPage(state, language, state.kind === 'GONE' ? '' : this.forms.token(asLinkId(id.toLowerCase()), nonce)));
  }

  @Public()
  @Post(':linkId')
  async choose(
    @Param('linkId') id: string,
    @Body() body: Record<string, unknown>,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const language = payerLanguage(acceptLanguage);
    const linkId = UUID.test(id) ? asLinkId(id.toLowerCase()) : null;
    const { token, countryProcessorId } = body ?? {};
    if (!linkId || !this.forms.verify(linkId, this.forms.nonceOf(cookie), token) || typeof countryProcessorId !== 'string') {
      response.status(403).set(PAGE_HEADERS).send(renderStalePage(language));
      return;
    }
    try {
      const started = await this.checkout.start(
        linkId,
        countryProcessorId,
        `${this.base}/pay/${linkId}`,
        request.ip ?? '',
        payerDetailsOf(body),
      );
      if ('gatewayUrl' in started) return void response.set('Cache-Control', 'no-store').redirect(303, started.gatewayUrl);
      // A gateway that verifies payers (dLocal): their details first, and again with what was wrong beside each field.
      const nonce = this.forms.nonceOf(cookie) ?? this.forms.newNonce();
      response
        .status(started.invalid ? 400 : 200)
        .set(PAGE_HEADERS)
        .cookie(this.forms.cookie, nonce, this.forms.cookieOptions(this.base.startsWith('https:')))
        .send(renderPayPage(started.page, language, this.forms.token(linkId, nonce)));
    } catch (error) {
      // The card-testing guard's refusal (contract §30): a 429 page (the error filter's), not the link's page again.
      if (error instanceof DomainError && error.code === 'TOO_MANY_ATTEMPTS') throw error;
      // Used, expired, deleted or a method no longer offered meanwhile: the page says where things stand.
      this.logger.warn(`pay page ${linkId}: ${(error as Error).message}`);
      response.set('Cache-Control', 'no-store').redirect(303, `/pay/${linkId}`);
    }
  }
}
