import type { PayerProps } from '@pcs/payers';
import { PayerResponse } from './payer.responses';

export function presentPayer(p: Readonly<PayerProps>): PayerResponse {
  return {
    payerId: p.payerId,
    externalId: p.externalId,
    firstName: p.firstName,
    lastName: p.lastName,
    documentType: p.documentType,
    documentNumber: p.documentNumber,
    email: p.email,
    phone: p.phone,
    address: p.address,
    businessId: p.businessId,
    merchantId: p.merchantId,
  };
}
