import { Injectable, Logger } from '@nestjs/common';
import { GatewayAccounts } from '@pcs/gateway-accounts';
import { DisputeReport, GatewayNotice } from '@pcs/gateways';
import { currencyExponent, decimalToScaledInteger, DisputeReason, DomainError, isCurrency } from '@pcs/kernel';
import { mercadoPagoCredentials } from './mercado-pago-account';
import { MercadoPagoChargeback, MercadoPagoClient, MercadoPagoPayment, MercadoPagoRequestError } from './mercado-pago.client';
import { eventOfPayment, MercadoPagoGateway } from './mercado-pago.gateway';
import { MercadoPagoRecords } from './persistence/mercado-pago-records.repository';
import { NotificationSignatureInput, verifyNotification } from './mercado-pago-signature';

/**
 * Mercado Pago's notifications (contract §16): verified with the merchant's
 * webhook secret exactly as Mercado Pago documents, then the payment is read
 * from Mercado Pago itself (the notification only names it) and read as news
 * of the attempt its `external_reference` names, when that is an attempt of
 * that merchant at Mercado Pago. The event id is the payment and its status:
 * the same news twice changes nothing twice. A chargeback notification
 * (topic `topic_chargebacks_wh`, or `chargebacks` from IPN-era settings;
 * contract §21) names the case by the query's `data.id` — an 18-digit id
 * that a JSON number cannot hold exactly, so the body's is never read — and
 * the case is read with `GET /v1/chargebacks/:id`.
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
    const dataId = signature.dataId;
    if (!dataId || dataId.length > 64) return { kind: 'IGNORED' };
    const chargeback = topic === 'topic_chargebacks_wh' || topic === 'chargebacks';
    if (topic !== 'payment' && !chargeback) return { kind: 'IGNORED' };
    try {
      const client = await this.gateway.clientOf(credentials.merchantId);
      if (chargeback) return await this.chargebackNotice(client, credentials.merchantId, dataId);
      return await this.noticeOf(credentials.merchantId, await client.getPayment(dataId));
    } catch (error) {
      // Not answered 2xx: Mercado Pago sends the notification again later; reconciliation is the net under that.
      if (error instanceof MercadoPagoRequestError && error.status === 404) return { kind: 'UNKNOWN' };
      this.logger.warn(`${chargeback ? 'chargeback' : 'payment'} ${dataId}: ${(error as Error).message}`);
      throw new DomainError('GATEWAY_UNREACHABLE');
    }
  }

  /**
   * A chargeback as news of the collection it takes back: its payment (the
   * case's first) names our attempt in its external_reference, which must
   * be one of this merchant's at Mercado Pago.
   */
  private async chargebackNotice(client: MercadoPagoClient, merchantId: string, caseId: string): Promise<GatewayNotice> {
    const chargeback = await client.getChargeback(caseId);
    const paymentId = chargeback.payments?.[0];
    if (paymentId === undefined) return { kind: 'IGNORED' };
    const payment = await client.getPayment(String(paymentId));
    const payinId = payment.external_reference ?? '';
    const checkout = /^[0-9a-f-]{36}$/i.test(payinId) ? await this.records.checkoutOfPayin(payinId) : null;
    if (!checkout || checkout.merchantId !== merchantId) return { kind: 'UNKNOWN' };
    return disputeNotice(caseId, chargeback, checkout.payinId);
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

/** Mercado Pago's reasons (its documentation shows `fraud` and `general`), read into ours; anything else is GENERAL. */
const REASONS: Readonly<Record<string, DisputeReason>> = {
  fraud: 'FRAUDULENT',
  fraudulent: 'FRAUDULENT',
  product_not_received: 'PRODUCT_NOT_RECEIVED',
  not_received: 'PRODUCT_NOT_RECEIVED',
  product_unacceptable: 'PRODUCT_UNACCEPTABLE',
  not_as_described: 'PRODUCT_UNACCEPTABLE',
  duplicate: 'DUPLICATE',
  duplicated: 'DUPLICATE',
  credit_not_processed: 'CREDIT_NOT_PROCESSED',
  subscription_canceled: 'SUBSCRIPTION_CANCELED',
  subscription_cancelled: 'SUBSCRIPTION_CANCELED',
};

/** Documentation Mercado Pago has received and is deciding on. */
const UNDER_REVIEW = new Set(['review_pending', 'valid', 'invalid']);

/**
 * A chargeback as a dispute report (contract §21): `coverage_applied` true
 * is WON, false LOST, absent or null still open (UNDER_REVIEW once Mercado
 * Pago has documentation); the due date is `date_documentation_deadline`,
 * or none. The case is named by the id the notification gave; `payinId` is
 * our attempt its payment collected.
 */
export function disputeNotice(caseId: string, chargeback: MercadoPagoChargeback, payinId: string): GatewayNotice {
  const currency = chargeback.currency;
  const amount =
    typeof chargeback.amount === 'number' && currency && isCurrency(currency)
      ? decimalToScaledInteger(chargeback.amount, currencyExponent(currency))
      : null;
  if (!currency || !isCurrency(currency) || amount === null || amount <= 0) return { kind: 'IGNORED' };
  const deadline = chargeback.date_documentation_deadline ? new Date(chargeback.date_documentation_deadline) : null;
  const dispute: DisputeReport = {
    reference: caseId,
    chargeId: payinId,
    amount,
    currency,
    reason: REASONS[(chargeback.reason ?? '').toLowerCase()] ?? 'GENERAL',
    status:
      chargeback.coverage_applied === true
        ? 'WON'
        : chargeback.coverage_applied === false
          ? 'LOST'
          : UNDER_REVIEW.has(chargeback.documentation_status ?? '')
            ? 'UNDER_REVIEW'
            : 'NEEDS_RESPONSE',
    evidenceDueBy: deadline && !Number.isNaN(deadline.getTime()) ? deadline : null,
  };
  return { kind: 'DISPUTE', dispute };
}
