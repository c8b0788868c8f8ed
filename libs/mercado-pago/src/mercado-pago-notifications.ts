import { Injectable, Logger } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { GatewayNotice } from '@pcs/gateways';
import { DomainError } from '@pcs/kernel';
import { mercadoPagoCredentials } from './mercado-pago-account';
import { MercadoPagoPayment, MercadoPagoRequestError } from './mercado-pago.client';
import { eventOfPayment, MercadoPagoGateway } from './mercado-pago.gateway';
import { MercadoPagoRecords } from './mercado-pago-records.repository';
import { NotificationSignatureInput, verifyNotification } from './mercado-pago-signature';

/**
 * Mercado Pago's notifications (contract §16): verified with the merchant's
 * webhook secret exactly as Mercado Pago documents, then the payment is read
 * from Mercado Pago itself (the notification only names it) and read as news
 * of the attempt its `external_reference` names, when that is an attempt of
 * that merchant at Mercado Pago. The event id is the payment and its status:
 * the same news twice changes nothing twice.
 */
@Injectable()
export class MercadoPagoNotifications {
  private readonly logger = new Logger('MercadoPago');

  constructor(
    private readonly accounts: GatewayAccounts,
    private readonly gateway: MercadoPagoGateway,
    private readonly records: MercadoPagoRecords,
  ) {}

  async read(merchantId: string, topic: string | undefined, signature: NotificationSignatureInput): Promise<GatewayNotice> {
    const credentials = /^[0-9a-f-]{36}$/i.test(merchantId) ? await mercadoPagoCredentials(this.accounts, merchantId.toLowerCase()) : null;
    if (!credentials || !verifyNotification(credentials.webhookSecret, signature)) throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    if (topic !== 'payment' || !signature.dataId) return { kind: 'IGNORED' };
    let payment: MercadoPagoPayment;
    try {
      payment = await (await this.gateway.clientOf(credentials.merchantId)).getPayment(signature.dataId);
    } catch (error) {
      // Not answered 2xx: Mercado Pago sends the notification again later; reconciliation is the net under that.
      if (error instanceof MercadoPagoRequestError && error.status === 404) return { kind: 'UNKNOWN' };
      this.logger.warn(`payment ${signature.dataId}: ${(error as Error).message}`);
      throw new DomainError('GATEWAY_UNREACHABLE');
    }
    return this.noticeOf(credentials.merchantId, payment);
  }

  /** A payment as news of the attempt it names, if that is one of this merchant's at Mercado Pago. */
  private async noticeOf(merchantId: string, payment: MercadoPagoPayment): Promise<GatewayNotice> {
    const payinId = payment.external_reference ?? '';
    const checkout = /^[0-9a-f-]{36}$/i.test(payinId) ? await this.records.checkoutOfPayin(payinId) : null;
    // Another merchant's attempt, or no attempt of ours at all: nothing changes.
    if (!checkout || checkout.merchantId !== merchantId) return { kind: 'UNKNOWN' };
    return { kind: 'CHARGE', payinId, event: eventOfPayment(payment) };
  }
}
