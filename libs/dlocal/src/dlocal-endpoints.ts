import { Injectable } from '@nestjs/common';
import { GatewayNotice, PayerReturn, ProcessorRequest, ProcessorEndpoints } from '@pcs/gateways';
import { DLOCAL } from './dlocal-account';
import { DLocalNotifications } from './dlocal-notifications';

/** A posted field as dLocal sends it: a short string, or empty (arrays, objects and long values are no field of dLocal's). */
const field = (body: Record<string, unknown> | undefined, name: string) =>
  typeof body?.[name] === 'string' && body[name].length <= 256 ? body[name] : '';

/**
 * dLocal's public routes (contract §20), read here and served by the one processor entry: a
 * notification (a payment, a refund or a chargeback) is verified over its raw bytes and headers as
 * dLocal signs requests; dLocal POSTs the payer's browser back to the callback_url with a signed
 * status, taken only when its signature holds, and the payment then read from dLocal itself; a GET
 * of the same address (a reload) reads and decides nothing.
 */
@Injectable()
export class DLocalEndpoints implements ProcessorEndpoints {
  readonly path = 'dlocal';
  readonly gateway = DLOCAL;
  readonly displayName = 'dLocal';

  constructor(private readonly notifications: DLocalNotifications) {}

  readNotification(merchantId: string, request: ProcessorRequest): Promise<GatewayNotice> {
    return this.notifications.read(merchantId, request.headers, request.rawBody);
  }

  async payerReturned(payinId: string): Promise<PayerReturn> {
    const returnUrl = await this.notifications.returnUrlOf(payinId);
    return returnUrl === undefined ? { kind: 'UNKNOWN' } : { kind: 'BACK', returnUrl };
  }

  async payerPostedBack(payinId: string, request: ProcessorRequest): Promise<PayerReturn> {
    const verified = await this.notifications.returned(payinId, {
      paymentId: field(request.body, 'paymentId'),
      status: field(request.body, 'status'),
      date: field(request.body, 'date'),
      signature: field(request.body, 'signature'),
    });
    if (!verified) return { kind: 'REFUSED' };
    return {
      kind: 'BACK',
      returnUrl: verified.returnUrl,
      ...(verified.notice ? { learned: { merchantId: verified.merchantId, notice: verified.notice } } : {}),
    };
  }
}
