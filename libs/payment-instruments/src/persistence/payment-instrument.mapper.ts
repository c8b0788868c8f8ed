import { BusinessId, MerchantId, PayerId, PaymentInstrumentId } from '@pcs/kernel';
import { PaymentInstrument, PaymentInstrumentStatus } from '../domain/payment-instrument';
import { PaymentInstrumentOrmEntity } from './payment-instrument.orm-entity';

export function instrumentFromRow(row: PaymentInstrumentOrmEntity): PaymentInstrument {
  return PaymentInstrument.restore({
    ...row,
    paymentInstrumentId: PaymentInstrumentId(row.paymentInstrumentId),
    businessId: BusinessId(row.businessId),
    merchantId: MerchantId(row.merchantId),
    payerId: PayerId(row.payerId),
    status: row.status as PaymentInstrumentStatus,
  });
}

export function instrumentToRow(instrument: PaymentInstrument): PaymentInstrumentOrmEntity {
  return Object.assign(new PaymentInstrumentOrmEntity(), instrument.snapshot());
}
