import { Body, Controller, Get, Headers, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import { PayerPage, Public } from '@pcs/http';
import { FormTokens, PAGE_HEADERS, payerDetailsOf, PayerLanguage, payerLanguage, renderStalePage, renderUnavailablePage } from '@pcs/pages';
import { B2bCheckoutService, CheckoutPage } from '@pcs/payments';
import { DomainError } from '@pcs/kernel';
import type { Request, Response } from 'express';
import { renderCheckout } from './checkout.view';

/**
 * The hosted checkout of a B2B payment intent (contract §13), at the opaque
 * URL of its `nextAction`: public, server-rendered, in Spanish, English or
 * Portuguese as the browser prefers. The payer picks a method (a form protected like
 * the link page's), pays at the gateway, comes back to `/return`, and is sent
 * (303) to the merchant's redirectUrl with the signed parameters; `/back` is
 * "return to the merchant" with the status as it is.
 */
@ApiExcludeController()
@PayerPage()
@Controller('checkout')
export class CheckoutController {
  private readonly logger = new Logger('Checkout');
  private readonly forms: FormTokens;
  private readonly secure: boolean;

  constructor(
    private readonly checkout: B2bCheckoutService,
    settings: RuntimeSettings,
  ) {
    this.forms = new FormTokens(settings.secretsMasterKey, 'pcs_checkout', '/checkout');
    this.secure = settings.publicBaseUrl.startsWith('https:');
  }

  @Public()
  @Get(':reference')
  async page(
    @Param('reference') reference: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    this.show(response, await this.checkout.page(reference), reference, payerLanguage(acceptLanguage), cookie);
  }

  @Public()
  @Post(':reference')
  async choose(
    @Param('reference') reference: string,
    @Body() body: Record<string, unknown>,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const { token, countryProcessorId } = body ?? {};
    if (!this.forms.verify(reference, this.forms.nonceOf(cookie), token) || typeof countryProcessorId !== 'string') {
      response
        .status(403)
        .set(PAGE_HEADERS)
        .send(renderStalePage(payerLanguage(acceptLanguage)));
      return;
    }
    try {
      const started = await this.checkout.start(reference, countryProcessorId, request.ip ?? '', payerDetailsOf(body));
      if ('gatewayUrl' in started) return void response.set('Cache-Control', 'no-store').redirect(303, started.gatewayUrl);
      // A gateway that verifies payers (dLocal): their details first, and again with what was wrong beside each field.
      this.show(response, started.page, reference, payerLanguage(acceptLanguage), cookie, started.invalid ? 400 : 200);
    } catch (error) {
      // The card-testing guard's refusal (contract §30): a 429 page (the error filter's), not the checkout again.
      if (error instanceof DomainError && error.code === 'TOO_MANY_ATTEMPTS') throw error;
      // Paid, expired or a method no longer offered meanwhile: the page says where things stand.
      this.logger.warn(`checkout ${reference}: ${(error as Error).message}`);
      response.set('Cache-Control', 'no-store').redirect(303, `/checkout/${reference}`);
    }
  }

  /** Where the gateway sends the payer back. */
  @Public()
  @Get(':reference/return')
  async returned(
    @Param('reference') reference: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const outcome = await this.checkout.afterGateway(reference);
    if (!outcome) {
      response
        .status(404)
        .set(PAGE_HEADERS)
        .send(renderUnavailablePage('checkout', payerLanguage(acceptLanguage)));
    } else if ('redirect' in outcome) {
      response.set('Cache-Control', 'no-store').redirect(303, outcome.redirect);
    } else {
      this.show(response, outcome.page, reference, payerLanguage(acceptLanguage), cookie);
    }
  }

  /** "Return to the merchant", with the status as it is now. */
  @Public()
  @Get(':reference/back')
  async back(
    @Param('reference') reference: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const url = await this.checkout.returnToMerchant(reference);
    if (url) response.set('Cache-Control', 'no-store').redirect(303, url);
    else
      response
        .status(404)
        .set(PAGE_HEADERS)
        .send(renderUnavailablePage('checkout', payerLanguage(acceptLanguage)));
  }

  private show(
    response: Response,
    state: CheckoutPage,
    reference: string,
    language: PayerLanguage,
    cookie: string | undefined,
    status = state.kind === 'GONE' ? 404 : 200,
  ): void {
    const nonce = this.forms.nonceOf(cookie) ?? this.forms.newNonce();
    response
      .status(status)
      .set(PAGE_HEADERS)
      .cookie(this.forms.cookie, nonce, this.forms.cookieOptions(this.secure))
      .send(renderCheckout(state, language, state.kind === 'GONE' ? '' : this.forms.token(reference, nonce)));
  }
}
