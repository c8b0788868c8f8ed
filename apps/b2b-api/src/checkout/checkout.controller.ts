import { Body, Controller, Get, Headers, Logger, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import { PayerPage, Public } from '@pcs/http';
import { FormTokens, PAGE_HEADERS, pageLanguage, PageLanguage, renderStalePage, renderUnavailablePage } from '@pcs/pages';
import { B2bCheckoutService, CheckoutPage } from '@pcs/payment-intents';
import type { Response } from 'express';
import { renderCheckout } from './checkout.view';

/**
 * The hosted checkout of a B2B payment intent (contract §13), at the opaque
 * URL of its `nextAction`: public, server-rendered, Spanish unless the
 * browser prefers English. The payer picks a method (a form protected like
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
    this.show(response, await this.checkout.page(reference), reference, pageLanguage(acceptLanguage), cookie);
  }

  @Public()
  @Post(':reference')
  async choose(
    @Param('reference') reference: string,
    @Body() body: Record<string, unknown>,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const { token, countryProcessorId } = body ?? {};
    if (!this.forms.verify(reference, this.forms.nonceOf(cookie), token) || typeof countryProcessorId !== 'string') {
      response
        .status(403)
        .set(PAGE_HEADERS)
        .send(renderStalePage(pageLanguage(acceptLanguage)));
      return;
    }
    try {
      response.set('Cache-Control', 'no-store').redirect(303, await this.checkout.start(reference, countryProcessorId));
    } catch (error) {
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
        .send(renderUnavailablePage('checkout', pageLanguage(acceptLanguage)));
    } else if ('redirect' in outcome) {
      response.set('Cache-Control', 'no-store').redirect(303, outcome.redirect);
    } else {
      this.show(response, outcome.page, reference, pageLanguage(acceptLanguage), cookie);
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
        .send(renderUnavailablePage('checkout', pageLanguage(acceptLanguage)));
  }

  private show(response: Response, state: CheckoutPage, reference: string, language: PageLanguage, cookie: string | undefined): void {
    const nonce = this.forms.nonceOf(cookie) ?? this.forms.newNonce();
    response
      .status(state.kind === 'GONE' ? 404 : 200)
      .set(PAGE_HEADERS)
      .cookie(this.forms.cookie, nonce, this.forms.cookieOptions(this.secure))
      .send(renderCheckout(state, language, state.kind === 'GONE' ? '' : this.forms.token(reference, nonce)));
  }
}
