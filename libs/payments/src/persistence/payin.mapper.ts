import {
  asBusinessId,
  asMerchantId,
  asPaymentIntentId,
  Currency,
  FundsFlow,
  LiquidationSource,
  RefundOrigin,
  TransactionStatus,
} from '@pcs/kernel';
import { ConceptCode, ManualRefundStatus, Payin, PaymentIntentInitiator, TransactionType } from '../domain/payin';
import { PayinOrmEntity } from './payin.orm-entity';

export function payinFromRow(row: PayinOrmEntity): Payin {
  return Payin.restore({
    ...row,
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    paymentIntentId: asPaymentIntentId(row.paymentIntentId),
    transactionType: row.transactionType as TransactionType,
    conceptCode: row.conceptCode as ConceptCode,
    status: row.status as TransactionStatus,
    manualRefundStatus: row.manualRefundStatus as ManualRefundStatus | null,
    currency: row.currency as Currency,
    paymentIntentInitiator: row.paymentIntentInitiator as PaymentIntentInitiator,
    fundsFlow: row.fundsFlow as FundsFlow,
    liquidationSource: row.liquidationSource as LiquidationSource | null,
    origin: row.origin as RefundOrigin | null,
  });
}

export function payinToRow(payin: Payin): PayinOrmEntity {
  return Object.assign(new PayinOrmEntity(), payin.snapshot());
}
