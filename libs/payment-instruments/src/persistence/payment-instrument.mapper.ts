import { asBusinessId, asMerchantId, asPayerId, asPaymentInstrumentId } from '@pcs/kernel';
import { PaymentInstrument, PaymentInstrumentStatus } from '../domain/payment-instrument';
import { PaymentInstrumentOrmEntity } from './payment-instrument.orm-entity';

export function instrumentFromRow(row: PaymentInstrumentOrmEntity): PaymentInstrument {
  return PaymentInstrument.restore({
    ...row,
    paymentInstrumentId: asPaymentInstrumentId(row.paymentInstrumentId),
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    payerId: asPayerId(row.payerId),
    status: row.status as PaymentInstrumentStatus,
  });
}

export function instrumentToRow(instrument: PaymentInstrument): PaymentInstrumentOrmEntity {
  return Object.assign(new PaymentInstrumentOrmEntity(), instrument.snapshot());
}
