import { scaledIntegerToDecimal } from '@pcs/kernel';
import { MerchantView } from './merchant.service';

/** The specification's Merchant, as every surface shows it (the payins API, the operator commands). */
export interface MerchantRepresentation {
  merchantId: string;
  type: string;
  merchantName: string;
  phone: string | null;
  taxIdNumber: string | null;
  fantasyName: string | null;
  email: string | null;
  webSite: string | null;
  dateOfFoundation: string | null;
  monthlyLoad: number | null;
  monthlyLoadUsd: number | null;
  monthlyTpvUsd: number | null;
  averageTransactionUsd: number | null;
  averageAnnualBilling: number | null;
  status: string;
  approvedAt: string | null;
  metadata: string | null;
  businessId: string;
  accountCurrencies: string;
  transfersType: string | null;
  address: MerchantView['merchant']['address'];
  apiKey: string | null;
  apiSecret: string | null;
  account: { serviceAccount: string | null; settlementBank: MerchantView['merchant']['account']['settlementBank'] };
}

const cents = (value: number | null) => (value === null ? null : scaledIntegerToDecimal(value, 2));
const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Whitelists exactly the fields of the specification's Merchant. */
export function merchantRepresentation({ merchant: m, credentials }: MerchantView): MerchantRepresentation {
  return {
    merchantId: m.merchantId,
    type: m.type,
    merchantName: m.merchantName,
    phone: m.phone,
    taxIdNumber: m.taxIdNumber,
    fantasyName: m.fantasyName,
    email: m.email,
    webSite: m.webSite,
    dateOfFoundation: iso(m.dateOfFoundation),
    monthlyLoad: cents(m.volumes.monthlyLoad),
    monthlyLoadUsd: cents(m.volumes.monthlyLoadUsd),
    monthlyTpvUsd: cents(m.volumes.monthlyTpvUsd),
    averageTransactionUsd: cents(m.volumes.averageTransactionUsd),
    averageAnnualBilling: cents(m.volumes.averageAnnualBilling),
    status: m.status,
    approvedAt: iso(m.approvedAt),
    metadata: m.metadata,
    businessId: m.businessId,
    accountCurrencies: m.currencies.join(','),
    transfersType: m.transfersType,
    address: m.address,
    apiKey: credentials?.apiKey ?? null,
    apiSecret: credentials?.apiSecret ?? null,
    account: {
      serviceAccount: m.account.serviceAccount,
      settlementBank: m.account.settlementBank && { ...m.account.settlementBank },
    },
  };
}
