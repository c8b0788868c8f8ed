import {
  asBusinessId,
  asMerchantId,
  asPayerId,
  asPaymentInstrumentId,
  asPaymentIntentId,
  Currency,
  DisputeStatus,
  PayinType,
} from '@pcs/kernel';
import { PaymentIntent, PaymentIntentOrigin, PaymentIntentStatus } from '../domain/payment-intent';
import { PaymentIntentOrmEntity } from './payment-intent.orm-entity';

export function intentFromRow(row: PaymentIntentOrmEntity): PaymentIntent {
  return PaymentIntent.restore({
    ...row,
    paymentIntentId: asPaymentIntentId(row.paymentIntentId),
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    payerId: row.payerId === null ? null : asPayerId(row.payerId),
    paymentInstrumentId: row.paymentInstrumentId === null ? null : asPaymentInstrumentId(row.paymentInstrumentId),
    origin: row.origin as PaymentIntentOrigin,
    payinType: row.payinType as PayinType,
    status: row.status as PaymentIntentStatus,
    currency: row.currency as Currency,
    confirmationMethod: row.confirmationMethod as 'AUTOMATIC' | 'MANUAL',
    disputes: (row.disputes ?? []).map((d) => ({
      disputeId: d.disputeId,
      status: d.status as DisputeStatus,
      amount: Number(d.amount),
      ...(d.claim ? { claim: true } : {}),
      ...(d.settledByRefund ? { settledByRefund: true } : {}),
    })),
    installmentPlan: row.installmentPlan ?? null,
  });
}

export function intentToRow(intent: PaymentIntent): PaymentIntentOrmEntity {
  const p = intent.snapshot();
  return Object.assign(new PaymentIntentOrmEntity(), {
    ...p,
    disputes: p.disputes.map((d) => ({ ...d })),
    installmentPlan: p.installmentPlan && { ...p.installmentPlan },
  });
}
