import { Controller, Get, Headers, HttpCode, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { GatewayRegistry, PayerReturn, ProcessorRequest, ProcessorEndpoints } from '@pcs/gateways';
import { PayerPage, Public, RawBodyRequest } from '@pcs/http';
import { PAGE_HEADERS, payerLanguage, renderProcessingPage } from '@pcs/pages';
import { NotificationResult } from '@pcs/payments';
import { ProcessorNotices } from '@pcs/processor-reports';
import type { Request, Response } from 'express';

/**
 * Every processor's public routes on each API (contracts §16, §20), one entry that dispatches by the
 * path's processor (`/gateways/mercado-pago/…`, `/gateways/dlocal/…`) to the reading its library
 * registered (ProcessorEndpoints): a notification, verified and read by the processor's library, is
 * applied for the merchant of its path (lower-cased); a payer coming back from the processor's page
 * goes on to the page that opened the attempt (the link page, the B2B checkout), what was read from
 * the processor on the way applied like a notification. All public: the processors sign their own.
 */
@ApiExcludeController()
@Controller('gateways/:provider')
export class ProcessorEndpointsController {
  constructor(
    private readonly registry: GatewayRegistry,
    private readonly applier: ProcessorNotices,
  ) {}

  @Public()
  @Post('notifications/:merchantId')
  @HttpCode(200)
  async notify(
    @Param('provider') provider: string,
    @Param('merchantId') merchantId: string,
    @Req() request: Request & RawBodyRequest,
  ): Promise<{ received: true; result: NotificationResult }> {
    const routes = this.endpointsAt(provider);
    const notice = await routes.readNotification(merchantId, requestOf(request));
    const result = await this.applier.apply(merchantId.toLowerCase(), routes.gateway, notice);
    return { received: true, result };
  }

  /** The payer's browser back at the return address by a GET (a reload, or a processor that returns so): nothing is decided. */
  @Public()
  @PayerPage()
  @Get('return/:payinId')
  async returned(
    @Param('provider') provider: string,
    @Param('payinId') payinId: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const routes = this.endpointsAt(provider);
    await this.goOn(routes, await routes.payerReturned(payinId), acceptLanguage, response);
  }

  /** The payer's browser posted back with the processor's signed status (dLocal): only where the processor does so. */
  @Public()
  @PayerPage()
  @Post('return/:payinId')
  async postedBack(
    @Param('provider') provider: string,
    @Param('payinId') payinId: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Req() request: Request & RawBodyRequest,
    @Res() response: Response,
  ): Promise<void> {
    const routes = this.endpointsAt(provider);
    if (!routes.payerPostedBack) throw new NotFoundException();
    await this.goOn(routes, await routes.payerPostedBack(payinId, requestOf(request)), acceptLanguage, response);
  }

  private endpointsAt(provider: string): ProcessorEndpoints {
    const routes = this.registry.endpointsAt(provider);
    if (!routes) throw new NotFoundException();
    return routes;
  }

  private async goOn(routes: ProcessorEndpoints, back: PayerReturn, acceptLanguage: string | undefined, response: Response): Promise<void> {
    if (back.kind === 'BACK' && back.learned)
      // Read from the processor itself: applied as its notification would be (which, or reconciliation, tells it too).
      await this.applier.apply(back.learned.merchantId, routes.gateway, back.learned.notice).catch(() => undefined);
    if (back.kind === 'BACK' && back.returnUrl) return void response.set('Cache-Control', 'no-store').redirect(303, back.returnUrl);
    response
      .status(back.kind === 'UNKNOWN' ? 404 : back.kind === 'REFUSED' ? 400 : 200)
      .set(PAGE_HEADERS)
      .send(renderProcessingPage(routes.displayName, payerLanguage(acceptLanguage)));
  }
}

function requestOf(request: Request & RawBodyRequest): ProcessorRequest {
  const object = (value: unknown) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  return {
    query: object(request.query) ?? {},
    headers: request.headers,
    body: object(request.body),
    rawBody: request.rawBody ?? Buffer.alloc(0),
  };
}
