import { basisPointsToVatPercentage, scaledIntegerToDecimal } from '@pcs/kernel';
import { MerchantConfigurationView, MerchantView } from '@pcs/merchants';
import { presentCountry } from '../catalog/catalog.presenter';
import { MerchantConfigurationResponse, MerchantResponse } from './merchant.responses';

const cents = (value: number | null) => (value === null ? null : scaledIntegerToDecimal(value, 2));
const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Whitelists exactly the fields of the specification's Merchant. */
export function presentMerchant({ merchant: m, credentials }: MerchantView): MerchantResponse {
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

export function presentConfiguration({
  configuration: c,
  countryConfigurations,
}: MerchantConfigurationView): MerchantConfigurationResponse {
  return {
    merchantConfigurationId: c.merchantConfigurationId,
    merchantId: c.merchantId,
    paymentSuccessNotification: c.paymentSuccessNotification,
    paymentErrorNotification: c.paymentErrorNotification,
    notificationEmails: [...c.notificationEmails],
    shortName: c.shortName,
    fastPaymentsEnabled: c.fastPaymentsEnabled,
    merchantCountryConfigurations: countryConfigurations.map((cc) => ({
      merchantCountryConfigurationId: cc.merchantCountryConfigurationId,
      merchantId: c.merchantId,
      countryId: cc.country.countryId,
      country: presentCountry(cc.country),
      vatPercentage: basisPointsToVatPercentage(cc.vatRateBp),
    })),
  };
}
