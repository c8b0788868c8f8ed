import { Body, Controller, Get, Headers, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DLOCAL, DLocalNotifications } from '@pcs/dlocal';
import { PayerPage, Public, RawBodyRequest } from '@pcs/http';
import { PAGE_HEADERS, payerLanguage, renderProcessingPage } from '@pcs/pages';
import { NotificationResult } from '@pcs/payments';
import { ProcessorNotices } from '@pcs/processor-reports';
import type { Request, Response } from 'express';

const field = (body: Record<string, unknown> | undefined, name: string) =>
  typeof body?.[name] === 'string' && body[name].length <= 256 ? body[name] : '';

/**
 * dLocal's routes on each API (contract §20): its notifications (a payment,
 * a refund or a chargeback, signed as dLocal signs requests), and the
 * payer's return: dLocal POSTs the payer's browser to the callback_url with
 * a signed status, and the payer goes on to the page that opened the
 * attempt (the link page, the B2B checkout). Both are public; the outcome
 * only ever comes from what the service reads from dLocal itself.
 */
@ApiExcludeController()
@Controller('gateways/dlocal')
export class DLocalController {
  constructor(
    private readonly notifications: DLocalNotifications,
    private readonly applier: ProcessorNotices,
  ) {}

  @Public()
  @Post('notifications/:merchantId')
  @HttpCode(200)
  async notify(
    @Param('merchantId') merchantId: string,
    @Req() request: Request & RawBodyRequest,
  ): Promise<{ received: true; result: NotificationResult }> {
    const notice = await this.notifications.read(merchantId, request.headers, request.rawBody ?? Buffer.alloc(0));
    const result = await this.applier.apply(merchantId.toLowerCase(), DLOCAL, notice);
    return { received: true, result };
  }

  @Public()
  @PayerPage()
  @Post('return/:payinId')
  async returnedByPost(
    @Param('payinId') payinId: string,
    @Body() body: Record<string, unknown> | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const fields = {
      paymentId: field(body, 'paymentId'),
      status: field(body, 'status'),
      date: field(body, 'date'),
      signature: field(body, 'signature'),
    };
    const verified = await this.notifications.returned(payinId, fields);
    if (!verified) return this.page(response, acceptLanguage, 400);
    // The payment as read from dLocal, applied like a notification (the notification, or reconciliation, would tell it too).
    if (verified.notice) await this.applier.apply(verified.merchantId, DLOCAL, verified.notice).catch(() => undefined);
    if (verified.returnUrl) return void response.set('Cache-Control', 'no-store').redirect(303, verified.returnUrl);
    this.page(response, acceptLanguage, 200);
  }

  /** A reload of the return address (a GET): the payer goes on, nothing is read or decided. */
  @Public()
  @PayerPage()
  @Get('return/:payinId')
  async returned(
    @Param('payinId') payinId: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const returnUrl = await this.notifications.returnUrlOf(payinId);
    if (returnUrl) return void response.set('Cache-Control', 'no-store').redirect(303, returnUrl);
    this.page(response, acceptLanguage, returnUrl === undefined ? 404 : 200);
  }

  private page(response: Response, acceptLanguage: string | undefined, status: number): void {
    response
      .status(status)
      .set(PAGE_HEADERS)
      .send(renderProcessingPage('dLocal', payerLanguage(acceptLanguage)));
  }
}
