import { Body, Controller, Get, Headers, Logger, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RuntimeSettings } from '@pcs/config';
import { Public } from '@pcs/http';
import { asLinkId, LinkId } from '@pcs/links';
import { PAGE_HEADERS, pageLanguage } from '@pcs/pages';
import { LinkCheckoutService } from '@pcs/payment-intents';
import type { Response } from 'express';
import * as crypto from 'node:crypto';
import { renderPayPage, renderStalePage } from './pay-page.view';

const COOKIE = 'pcs_pay';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A link's hosted pay page (contract §12): public, server-rendered, Spanish
 * unless the browser prefers English. Its method forms change state, so they
 * are protected against cross-site submission: the page sets a SameSite=Strict
 * cookie and each form carries an HMAC of it with the link's id; a post
 * without both (a form on another site) changes nothing.
 */
@ApiExcludeController()
@Controller('pay')
export class PayPageController {
  private readonly logger = new Logger('PayPage');
  private readonly key: Buffer;

  constructor(
    private readonly checkout: LinkCheckoutService,
    settings: RuntimeSettings,
  ) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', settings.secretsMasterKey, Buffer.alloc(0), 'pcs pay page forms', 32));
    this.base = settings.publicBaseUrl;
  }

  private readonly base: string;

  @Public()
  @Get(':linkId')
  async page(
    @Param('linkId') id: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const language = pageLanguage(acceptLanguage);
    const state = UUID.test(id) ? await this.checkout.page(asLinkId(id.toLowerCase())) : ({ kind: 'GONE' } as const);
    const nonce = this.nonceOf(cookie) ?? crypto.randomBytes(16).toString('base64url');
    response
      .status(state.kind === 'GONE' ? 404 : 200)
      .set(PAGE_HEADERS)
      .cookie(COOKIE, nonce, { httpOnly: true, sameSite: 'strict', path: '/pay', secure: this.base.startsWith('https:') })
      .send(renderPayPage(state, language, state.kind === 'GONE' ? '' : this.token(asLinkId(id.toLowerCase()), nonce)));
  }

  @Public()
  @Post(':linkId')
  async choose(
    @Param('linkId') id: string,
    @Body() body: Record<string, unknown>,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const language = pageLanguage(acceptLanguage);
    const nonce = this.nonceOf(cookie);
    const linkId = UUID.test(id) ? asLinkId(id.toLowerCase()) : null;
    const { token, countryProcessorId } = body ?? {};
    if (
      !linkId ||
      !nonce ||
      typeof token !== 'string' ||
      !this.sameToken(token, this.token(linkId, nonce)) ||
      typeof countryProcessorId !== 'string'
    ) {
      response.status(403).set(PAGE_HEADERS).send(renderStalePage(language));
      return;
    }
    try {
      const gatewayUrl = await this.checkout.start(linkId, countryProcessorId, `${this.base}/pay/${linkId}`);
      response.set('Cache-Control', 'no-store').redirect(303, gatewayUrl);
    } catch (error) {
      // Used, expired, deleted or a method no longer offered meanwhile: the page says where things stand.
      this.logger.warn(`pay page ${linkId}: ${(error as Error).message}`);
      response.set('Cache-Control', 'no-store').redirect(303, `/pay/${linkId}`);
    }
  }

  private nonceOf(cookie: string | undefined): string | null {
    const match = cookie
      ?.split(';')
      .map((part) => part.trim().split('='))
      .find(([name]) => name === COOKIE);
    return match && /^[\w-]{22}$/.test(match[1] ?? '') ? match[1] : null;
  }

  private token(linkId: LinkId, nonce: string): string {
    // base64url, not hex: a long run of digits in a form value would be refused as a card number.
    return crypto.createHmac('sha256', this.key).update(`${linkId}:${nonce}`).digest('base64url');
  }

  private sameToken(given: string, expected: string): boolean {
    return given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  }
}
