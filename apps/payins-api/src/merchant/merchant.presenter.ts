import { basisPointsToVatPercentage, Currency, wireAmount } from '@pcs/kernel';
import { MerchantConfigurationView, merchantRepresentation, MerchantView, routingRulesView } from '@pcs/merchants';
import type { SettlementAccount } from '@pcs/settlement';
import { presentCountry } from '../catalog/catalog.presenter';
import { MerchantConfigurationResponse, MerchantResponse } from './merchant.responses';

/**
 * The specification's Merchant (the representation lives with the merchants
 * context; the operator commands print it too), its `account.settlementBank`
 * the settlement account in the seed's currency when there is one (contract
 * §19; without a seed, the account of its first currency).
 */
export function presentMerchant(view: MerchantView, accounts: readonly SettlementAccount[] = []): MerchantResponse {
  const presented = merchantRepresentation(view);
  const own = accounts.filter((a) => a.merchantId === view.merchant.merchantId);
  const seedCurrency = view.merchant.account.settlementBank?.currency;
  const account = seedCurrency
    ? own.find((a) => a.currency === seedCurrency)
    : view.merchant.currencies.map((c) => own.find((a) => a.currency === c)).find(Boolean);
  if (!account) return presented;
  return {
    ...presented,
    account: {
      ...presented.account,
      settlementBank: {
        settlementBankId: account.settlementAccountId,
        bankId: account.bank.bankId,
        accountNumber: account.accountNumber,
        currency: account.currency,
      },
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
    payoutSchedule: {
      interval: c.payoutSchedule.interval,
      ...(c.payoutSchedule.weeklyAnchor ? { weeklyAnchor: c.payoutSchedule.weeklyAnchor } : {}),
      ...(c.payoutSchedule.monthlyAnchor ? { monthlyAnchor: c.payoutSchedule.monthlyAnchor } : {}),
      minimumAmount: Object.fromEntries(
        Object.entries(c.payoutSchedule.minimumAmount).map(([currency, minor]) => [currency, wireAmount(minor, currency as Currency)]),
      ),
    },
    merchantCountryConfigurations: countryConfigurations.map((cc) => ({
      merchantCountryConfigurationId: cc.merchantCountryConfigurationId,
      merchantId: c.merchantId,
      countryId: cc.country.countryId,
      country: presentCountry(cc.country),
      vatPercentage: basisPointsToVatPercentage(cc.vatRateBp),
    })),
    installments: Object.fromEntries(
      Object.entries(c.installmentPolicy).map(([country, policy]) => [
        country,
        {
          maxInstallments: policy.maxInstallments,
          interestFreeUpTo: policy.interestFreeUpTo,
          minInstallmentAmount: Object.fromEntries(
            Object.entries(policy.minInstallmentAmount).map(([currency, minor]) => [currency, wireAmount(minor, currency as Currency)]),
          ),
        },
      ]),
    ),
    routing: routingRulesView(c.routing),
    cardTestingGuard: { ...c.cardTestingGuard },
    dunning: { retryDays: [...c.dunning.retryDays], finalStatus: c.dunning.finalStatus },
  };
}
