import { asBusinessId, asMerchantId, asPayerId, DocumentType } from '@pcs/kernel';
import { Payer } from '../domain/payer';
import { PayerOrmEntity } from './payer.orm-entity';

export function payerFromRow(row: PayerOrmEntity): Payer {
  const { searchText: _ignored, ...rest } = row;
  return Payer.restore({
    ...rest,
    payerId: asPayerId(row.payerId),
    businessId: asBusinessId(row.businessId),
    merchantId: asMerchantId(row.merchantId),
    documentType: row.documentType as DocumentType | null,
  });
}

export function payerToRow(payer: Payer): PayerOrmEntity {
  return Object.assign(new PayerOrmEntity(), payer.snapshot());
}
