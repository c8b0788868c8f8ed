import { DisputeReport, GatewayNotice, processorMinor } from '@pcs/gateways';
import { DisputeReason, isCurrency } from '@pcs/kernel';
import { MERCADO_PAGO } from './mercado-pago-account';
import type { MercadoPagoChargeback, MercadoPagoPayment } from './mercado-pago.client';

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
  if (!currency || !isCurrency(currency)) return { kind: 'IGNORED' };
  // Read exactly (contract §28): a case whose amount cannot be read fails its notification, and nothing is booked.
  const amount = processorMinor(MERCADO_PAGO, chargeback.amount, currency, `chargeback ${caseId} amount`);
  if (amount <= 0) return { kind: 'IGNORED' };
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

/**
 * A payment's claim (`in_mediation`: the payer complained to Mercado Pago,
 * which holds the money until it decides) as a dispute report of kind CLAIM
 * (contract §23), named after the payment: opened while the payment is in
 * mediation, for what is still collected; once the payment leaves it, news of
 * how the claim ended (only for a claim already open): released (`approved`)
 * is WON, the payer refunded (`refunded`) LOST — Mercado Pago's refund that
 * ends it is the money the dispute already took, never taken twice.
 */
export function claimOf(payment: MercadoPagoPayment, payinId: string): DisputeReport | undefined {
  const currency = payment.currency_id;
  if (!currency || !isCurrency(currency) || payment.transaction_amount === undefined) return undefined;
  const gross = processorMinor(MERCADO_PAGO, payment.transaction_amount, currency, `payment ${payment.id} transaction_amount`);
  const refunded = (payment.refunds ?? [])
    .filter((refund) => refund.status === 'approved')
    .reduce((sum, refund) => sum + processorMinor(MERCADO_PAGO, refund.amount, currency, `refund ${refund.id} amount`), 0);
  const base = {
    reference: `mediation-${payment.id}`,
    chargeId: payinId,
    currency,
    reason: 'GENERAL' as const,
    evidenceDueBy: null,
    kind: 'CLAIM' as const,
  };
  if (payment.status === 'in_mediation') {
    const held = gross - refunded;
    return held > 0 ? { ...base, amount: held, status: 'NEEDS_RESPONSE' } : undefined;
  }
  if (payment.status === 'approved') return { ...base, amount: gross, status: 'WON', updateOnly: true };
  if (payment.status === 'refunded') return { ...base, amount: gross, status: 'LOST', updateOnly: true };
  return undefined;
}
