import { cardTestingGuardOf } from '../domain/card-testing-guard';
import { dunningOf } from '../domain/dunning';
import { DEFAULT_PAYOUT_SCHEDULE } from '../domain/payout-schedule';
import { asBusinessId, asMerchantId, Currency, TransfersType } from '@pcs/kernel';
import { Merchant, MerchantProps, MerchantStatus } from '../domain/merchant';
import { MerchantConfiguration } from '../domain/merchant-configuration';
import { MerchantCountryProcessor, OnboardingStatus } from '../domain/merchant-country-processor';
import { MerchantConfigurationOrmEntity, MerchantCountryConfigurationOrmEntity } from './merchant-configuration.orm-entity';
import { MerchantCountryProcessorOrmEntity } from './merchant-country-processor.orm-entity';
import { MerchantOrmEntity } from './merchant.orm-entity';

export function merchantFromRow(row: MerchantOrmEntity): Merchant {
  const bank =
    row.settlementBankId || row.settlementBankBankId || row.settlementAccountNumber || row.settlementCurrency
      ? {
          settlementBankId: row.settlementBankId,
          bankId: row.settlementBankBankId,
          accountNumber: row.settlementAccountNumber,
          currency: row.settlementCurrency as Currency | null,
        }
      : null;
  return Merchant.restore({
    merchantId: asMerchantId(row.merchantId),
    businessId: asBusinessId(row.businessId),
    countryId: row.countryId,
    type: row.type,
    merchantName: row.merchantName,
    fantasyName: row.fantasyName,
    phone: row.phone,
    email: row.email,
    taxIdNumber: row.taxIdNumber,
    webSite: row.webSite,
    dateOfFoundation: row.dateOfFoundation,
    volumes: {
      monthlyLoad: row.monthlyLoad,
      monthlyLoadUsd: row.monthlyLoadUsd,
      monthlyTpvUsd: row.monthlyTpvUsd,
      averageTransactionUsd: row.averageTransactionUsd,
      averageAnnualBilling: row.averageAnnualBilling,
    },
    status: row.status as MerchantStatus,
    approvedAt: row.approvedAt,
    metadata: row.metadata,
    currencies: row.currencies as Currency[],
    transfersType: row.transfersType as TransfersType | null,
    address: row.address,
    account: { serviceAccount: row.serviceAccountId, settlementBank: bank },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
  });
}

export function merchantToRow(merchant: Merchant): MerchantOrmEntity {
  const p: Readonly<MerchantProps> = merchant.snapshot();
  const row = new MerchantOrmEntity();
  Object.assign(row, {
    merchantId: p.merchantId,
    businessId: p.businessId,
    countryId: p.countryId,
    type: p.type,
    merchantName: p.merchantName,
    fantasyName: p.fantasyName,
    phone: p.phone,
    email: p.email,
    taxIdNumber: p.taxIdNumber,
    webSite: p.webSite,
    dateOfFoundation: p.dateOfFoundation,
    ...p.volumes,
    status: p.status,
    approvedAt: p.approvedAt,
    metadata: p.metadata,
    currencies: p.currencies,
    transfersType: p.transfersType,
    address: p.address,
    serviceAccountId: p.account.serviceAccount,
    settlementBankId: p.account.settlementBank?.settlementBankId ?? null,
    settlementBankBankId: p.account.settlementBank?.bankId ?? null,
    settlementAccountNumber: p.account.settlementBank?.accountNumber ?? null,
    settlementCurrency: p.account.settlementBank?.currency ?? null,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    deletedAt: p.deletedAt,
  });
  return row;
}

export function configurationFromRows(
  row: MerchantConfigurationOrmEntity,
  vats: MerchantCountryConfigurationOrmEntity[],
): MerchantConfiguration {
  return MerchantConfiguration.restore({
    merchantConfigurationId: row.merchantConfigurationId,
    merchantId: asMerchantId(row.merchantId),
    paymentSuccessNotification: row.paymentSuccessNotification,
    paymentErrorNotification: row.paymentErrorNotification,
    notificationEmails: row.notificationEmails,
    shortName: row.shortName,
    fastPaymentsEnabled: row.fastPaymentsEnabled,
    countryVats: vats.map((v) => ({ countryId: v.countryId, vatRateBp: v.vatRateBp })),
    payoutSchedule: row.payoutSchedule ?? DEFAULT_PAYOUT_SCHEDULE,
    installmentPolicy: row.installmentPolicy ?? {},
    routing: row.routing ?? [],
    cardTestingGuard: cardTestingGuardOf(row.cardTestingGuard),
    dunning: dunningOf(row.dunning),
  });
}

export function merchantCountryProcessorFromRow(row: MerchantCountryProcessorOrmEntity): MerchantCountryProcessor {
  return MerchantCountryProcessor.restore({
    ...row,
    merchantId: asMerchantId(row.merchantId),
    onboardingStatus: row.onboardingStatus as OnboardingStatus,
  });
}

export function merchantCountryProcessorToRow(relationship: MerchantCountryProcessor): MerchantCountryProcessorOrmEntity {
  return Object.assign(new MerchantCountryProcessorOrmEntity(), relationship.snapshot());
}
