import { basisPointsToVatPercentage } from '@pcs/kernel';
import { MerchantConfigurationView, merchantRepresentation, MerchantView } from '@pcs/merchants';
import { presentCountry } from '../catalog/catalog.presenter';
import { MerchantConfigurationResponse, MerchantResponse } from './merchant.responses';

/** The specification's Merchant (the representation lives with the merchants context; the operator commands print it too). */
export function presentMerchant(view: MerchantView): MerchantResponse {
  return merchantRepresentation(view);
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
