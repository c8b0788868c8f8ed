import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  MERCADO_PAGO,
  MercadoPagoAccounts,
  MercadoPagoGateway,
  MercadoPagoPayment,
  MercadoPagoRecords,
  MercadoPagoRequestError,
  eventOfPayment,
  NotificationSignatureInput,
  verifyNotification,
} from '@pcs/gateways';
import { DomainError } from '@pcs/kernel';
import { PayinLedgerService } from '@pcs/payins';
import { DataSource } from 'typeorm';
import { GatewayEventsService } from '../gateway-events/gateway-events.service';

export type NotificationResult = 'applied' | 'replayed' | 'unknown' | 'ignored';

/**
 * Mercado Pago's notifications (contract §16): verified with the merchant's
 * webhook secret exactly as Mercado Pago documents, then the payment is read
 * from Mercado Pago itself (the notification only names it) and its status
 * applied to the attempt its `external_reference` names — which must be an
 * attempt of that merchant at Mercado Pago — through the same rules as every
 * other outcome. The event id is the payment and its status: the same news
 * twice changes nothing twice; older news meets a final attempt and is absorbed.
 */
@Injectable()
export class MercadoPagoNotifications {
  private readonly logger = new Logger('MercadoPago');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accounts: MercadoPagoAccounts,
    private readonly gateway: MercadoPagoGateway,
    private readonly records: MercadoPagoRecords,
    private readonly ledger: PayinLedgerService,
    private readonly events: GatewayEventsService,
  ) {}

  async receive(merchantId: string, topic: string | undefined, signature: NotificationSignatureInput): Promise<NotificationResult> {
    const credentials = /^[0-9a-f-]{36}$/i.test(merchantId) ? await this.accounts.credentials(merchantId.toLowerCase()) : null;
    if (!credentials || !verifyNotification(credentials.webhookSecret, signature)) throw new DomainError('GATEWAY_CALLBACK_REJECTED');
    if (topic !== 'payment' || !signature.dataId) return 'ignored';
    let payment: MercadoPagoPayment;
    try {
      payment = await (await this.gateway.clientOf(credentials.merchantId)).getPayment(signature.dataId);
    } catch (error) {
      // Not answered 2xx: Mercado Pago sends the notification again later; reconciliation is the net under that.
      if (error instanceof MercadoPagoRequestError && error.status === 404) return 'unknown';
      this.logger.warn(`payment ${signature.dataId}: ${(error as Error).message}`);
      throw new DomainError('GATEWAY_UNREACHABLE');
    }
    return this.apply(credentials.merchantId, payment);
  }

  /** A payment's status applied to the attempt it names, if that is one of this merchant's at Mercado Pago. */
  async apply(merchantId: string, payment: MercadoPagoPayment): Promise<NotificationResult> {
    const payinId = payment.external_reference ?? '';
    const checkout = /^[0-9a-f-]{36}$/i.test(payinId) ? await this.records.checkoutOfPayin(payinId) : null;
    // Another merchant's attempt, or no attempt of ours at all: nothing changes.
    if (!checkout || checkout.merchantId !== merchantId) return 'unknown';
    const attempt = await this.ledger.get(this.dataSource.manager, payinId);
    const p = attempt?.snapshot();
    if (!attempt || !p || p.merchantId !== merchantId || p.gateway !== MERCADO_PAGO || p.transactionType !== 'PAYIN') return 'unknown';
    return this.events.applyTo(attempt, eventOfPayment(payment));
  }
}
