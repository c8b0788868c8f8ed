import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PayerPage, Public } from '@pcs/http';
import { MERCADO_PAGO, MercadoPagoNotifications, MercadoPagoRecords } from '@pcs/mercado-pago';
import { PAGE_HEADERS, payerLanguage, renderProcessingPage } from '@pcs/pages';
import { NotificationResult } from '@pcs/payments';
import { ProcessorNotices } from '@pcs/processor-reports';
import type { Response } from 'express';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Mercado Pago's routes on each API (contract §16): its notifications, and
 * the return from Checkout Pro, which sends the payer on to the page that
 * opened the attempt (the link page, the B2B checkout) as the sandbox does.
 * Both are public: notifications carry Mercado Pago's own signature.
 */
@ApiExcludeController()
@Controller('gateways/mercado-pago')
export class MercadoPagoController {
  constructor(
    private readonly notifications: MercadoPagoNotifications,
    private readonly applier: ProcessorNotices,
    private readonly records: MercadoPagoRecords,
  ) {}

  @Public()
  @Post('notifications/:merchantId')
  @HttpCode(200)
  async notify(
    @Param('merchantId') merchantId: string,
    @Query() query: Record<string, unknown>,
    @Body() body: Record<string, unknown> | undefined,
    @Headers('x-signature') signature: string | undefined,
    @Headers('x-request-id') requestId: string | undefined,
  ): Promise<{ received: true; result: NotificationResult }> {
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const topic = text(query.type) ?? text(query.topic) ?? text(body?.type);
    const notice = await this.notifications.read(merchantId, topic, { signature, requestId, dataId: text(query['data.id']) });
    const result = await this.applier.apply(merchantId.toLowerCase(), MERCADO_PAGO, notice);
    return { received: true, result };
  }

  @Public()
  @PayerPage()
  @Get('return/:payinId')
  async returned(
    @Param('payinId') payinId: string,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    // What Mercado Pago appends to the address (payment_id, status…) is not trusted: the outcome comes by notification.
    const checkout = UUID.test(payinId) ? await this.records.checkoutOfPayin(payinId.toLowerCase()) : null;
    if (checkout?.returnUrl) return void response.set('Cache-Control', 'no-store').redirect(303, checkout.returnUrl);
    response
      .status(checkout ? 200 : 404)
      .set(PAGE_HEADERS)
      .send(renderProcessingPage('Mercado Pago', payerLanguage(acceptLanguage)));
  }
}
