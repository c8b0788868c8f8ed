import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { inTransaction } from '@pcs/database';
import {
  MERCADO_PAGO,
  MercadoPagoAccounts,
  MercadoPagoGateway,
  MercadoPagoPayment,
  MercadoPagoRecords,
  MercadoPagoRequestError,
  NotificationSignatureInput,
  outcomeOfPayment,
  verifyNotification,
} from '@pcs/gateways';
import { DomainError, TransactionStatus } from '@pcs/kernel';
import { PayinLedgerService } from '@pcs/payins';
import { DataSource } from 'typeorm';
import { AttemptOutcomes } from '../attempts/attempt-outcomes';
import { GatewayEventLog, PaymentIntentRepository } from '../payment-intent.repository';

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
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinLedgerService,
    private readonly events: GatewayEventLog,
    private readonly outcomes: AttemptOutcomes,
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
    const found = await this.ledger.get(this.dataSource.manager, payinId);
    const p = found?.snapshot();
    if (!found || !p || p.merchantId !== merchantId || p.gateway !== MERCADO_PAGO || p.transactionType !== 'PAYIN') return 'unknown';
    const outcome = outcomeOfPayment(payment);
    const eventId = `payment:${payment.id}:${payment.status}`;
    return inTransaction(this.dataSource, async (manager) => {
      if (!(await this.events.record(manager, MERCADO_PAGO, eventId, String(payment.id)))) return 'replayed';
      const intent = await this.intents.lockById(manager, p.paymentIntentId);
      const payin = await this.ledger.get(manager, payinId, true);
      if (!intent || !payin) return 'unknown';
      if (payin.isFinal && outcome === 'APPROVED' && payin.status !== TransactionStatus.APPROVED)
        this.logger.error(
          `Mercado Pago payment ${payment.id} was approved for attempt ${payinId}, which had already ended: refund it at Mercado Pago`,
        );
      await this.outcomes.apply(manager, intent, payin, {
        gateway: MERCADO_PAGO,
        eventId,
        reference: String(payment.id),
        outcome,
        error: outcome === 'REJECTED' ? `Mercado Pago: ${payment.status_detail ?? payment.status}` : undefined,
        maskedPan: payment.card?.last_four_digits ? `************${payment.card.last_four_digits}` : undefined,
      });
      return 'applied';
    });
  }
}
