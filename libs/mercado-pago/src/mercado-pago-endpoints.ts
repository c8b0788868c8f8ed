import { Injectable } from '@nestjs/common';
import { GatewayNotice, PayerReturn, ProcessorRequest, ProcessorEndpoints } from '@pcs/gateways';
import { MERCADO_PAGO } from './mercado-pago-account';
import { MercadoPagoNotifications } from './mercado-pago-notifications';
import { MercadoPagoRecords } from './persistence/mercado-pago-records.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * Mercado Pago's public routes (contract §16), read here and served by the one processor entry: a
 * notification names its topic in the query's `type` (or the older `topic`, or the body's `type`) and
 * its resource in `data.id`, signed in `x-signature` over `x-request-id`; the payer returns from
 * Checkout Pro by a GET, whose appended fields (payment_id, status…) are never trusted: the outcome
 * comes by notification.
 */
@Injectable()
export class MercadoPagoEndpoints implements ProcessorEndpoints {
  readonly path = 'mercado-pago';
  readonly gateway = MERCADO_PAGO;
  readonly displayName = 'Mercado Pago';

  constructor(
    private readonly notifications: MercadoPagoNotifications,
    private readonly records: MercadoPagoRecords,
  ) {}

  readNotification(merchantId: string, request: ProcessorRequest): Promise<GatewayNotice> {
    const { query, body, headers } = request;
    const topic = text(query.type) ?? text(query.topic) ?? text(body?.type);
    return this.notifications.read(merchantId, topic, {
      signature: text(headers['x-signature']),
      requestId: text(headers['x-request-id']),
      dataId: text(query['data.id']),
    });
  }

  async payerReturned(payinId: string): Promise<PayerReturn> {
    const checkout = UUID.test(payinId) ? await this.records.checkoutOfPayin(payinId.toLowerCase()) : null;
    return checkout ? { kind: 'BACK', returnUrl: checkout.returnUrl } : { kind: 'UNKNOWN' };
  }
}
