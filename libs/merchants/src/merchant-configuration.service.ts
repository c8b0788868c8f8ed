import { Injectable } from '@nestjs/common';
import { CatalogService, Country } from '@pcs/catalog';
import {
  basisPointsToVatPercentage,
  Caller,
  DomainError,
  MerchantId,
  Transaction,
  UnitOfWork,
  vatPercentageToBasisPoints,
} from '@pcs/kernel';
import { CountryVat, MerchantConfiguration, MerchantConfigurationProps } from './domain/merchant-configuration';
import { MerchantAccess } from './merchant-access';
import { PayoutSchedule, PayoutScheduleRequest, payoutScheduleFrom } from './domain/payout-schedule';
import {
  CountryInstallmentPolicy,
  countryInstallmentPolicy,
  INSTALLMENT_COUNTRIES,
  InstallmentPolicy,
  installmentPolicyFrom,
  InstallmentPolicyRequest,
} from './domain/installment-policy';
import { RoutingRule, RoutingRuleRequest, routingRulesFrom } from './domain/routing-rules';
import { CardTestingGuardRequest, CardTestingGuardSettings } from './domain/card-testing-guard';
import { DunningRequest, DunningSettings } from './domain/dunning';
import { MerchantConfigurationRepository, ShortNameTakenError } from './merchant.repository';

export interface MerchantConfigurationView {
  readonly configuration: Readonly<MerchantConfigurationProps>;
  readonly countryConfigurations: readonly { merchantCountryConfigurationId: string; country: Country; vatRateBp: number }[];
}

export interface ConfigurationRequest {
  shortName?: string;
  notificationEmails?: string[];
  paymentSuccessNotification?: boolean;
  paymentErrorNotification?: boolean;
  fastPaymentsEnabled?: boolean;
  merchantCountryConfigurations?: { countryIsoAlpha3: string; vatPercentage: number }[];
  payoutSchedule?: PayoutScheduleRequest;
  /** Replaces the whole policy when sent (contract §25). */
  installments?: InstallmentPolicyRequest;
  /** Replaces every routing rule when sent (contract §26). */
  routing?: RoutingRuleRequest[];
  /** The public pages' card-testing guard (contract §30): the fields sent; the others keep their value. */
  cardTestingGuard?: CardTestingGuardRequest;
  dunning?: DunningRequest;
}

/** What the configuration asks of other contexts before it is saved (the payments context knows which processors are connected). */
export interface ConfigurationChecks {
  /** Refuses rules naming a processor the merchant is not connected to. */
  readonly routing?: (merchantId: MerchantId, rules: readonly RoutingRule[], tx: Transaction) => Promise<void>;
}

function invalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION', reason, { reason, reasonEs });
}

@Injectable()
export class MerchantConfigurationService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly configurations: MerchantConfigurationRepository,
  ) {}

  /** Operation 6. */
  async get(caller: Caller, merchantId: MerchantId): Promise<MerchantConfigurationView> {
    await this.access.loadVisible(caller, merchantId);
    return this.view(this.unitOfWork.outside, merchantId);
  }

  /** The VAT rate (basis points) the merchant configured for a country, if any. */
  async vatRateFor(merchantId: MerchantId, countryId: string, tx: Transaction = this.unitOfWork.outside): Promise<number | null> {
    return this.configurations.vatRateFor(tx, merchantId, countryId);
  }

  /** Who hears about the merchant's payment outcomes by email (contract §14), for the service's own flows; null for an unknown merchant. */
  async outcomeNotifications(
    merchantId: MerchantId,
    tx: Transaction = this.unitOfWork.outside,
  ): Promise<{ onSuccess: boolean; onError: boolean; emails: readonly string[] } | null> {
    const configuration = await this.configurations.load(tx, merchantId, false);
    if (!configuration) return null;
    const p = configuration.snapshot();
    return { onSuccess: p.paymentSuccessNotification, onError: p.paymentErrorNotification, emails: p.notificationEmails };
  }

  /** The payout schedules of these merchants, for the service's own flows (the scheduled payouts). */
  payoutSchedules(merchantIds: readonly MerchantId[]): Promise<Map<MerchantId, PayoutSchedule>> {
    return this.configurations.payoutSchedules(this.unitOfWork.outside, merchantIds);
  }

  /** The merchant's installments in a country (contract §25): one installment only unless configured. */
  async installmentPolicyFor(
    merchantId: MerchantId,
    countryIso3: string,
    tx: Transaction = this.unitOfWork.outside,
  ): Promise<CountryInstallmentPolicy> {
    // One column of one row: every initialize and payer's page asks.
    return countryInstallmentPolicy(await this.configurations.installmentPolicy(tx, merchantId), countryIso3);
  }

  /** The merchant's card-testing guard (contract §30): the defaults unless configured. */
  cardTestingGuardFor(merchantId: MerchantId, tx: Transaction = this.unitOfWork.outside): Promise<CardTestingGuardSettings> {
    return this.configurations.cardTestingGuard(tx, merchantId);
  }

  /** The merchant's dunning (contract §31): its retry days and final status, or the defaults. */
  dunningFor(merchantId: MerchantId, tx: Transaction = this.unitOfWork.outside): Promise<DunningSettings> {
    return this.configurations.dunning(tx, merchantId);
  }

  /** The merchant's routing rules (contract §26), first match wins; none: no rule. */
  routingFor(merchantId: MerchantId, tx: Transaction = this.unitOfWork.outside): Promise<RoutingRule[]> {
    // One column of one row: every initialize asks.
    return this.configurations.routing(tx, merchantId);
  }

  /** The merchant that takes fast payments under this short name, if any (case-insensitive). */
  async fastPaymentMerchantId(shortName: string): Promise<MerchantId | null> {
    return this.configurations.fastPaymentMerchantId(this.unitOfWork.outside, shortName);
  }

  /**
   * Operation 7: applies the fields sent. `merchantCountryConfigurations`,
   * when sent, replaces the whole set; each VAT percentage must be one the
   * country allows.
   */
  async upsert(
    caller: Caller,
    merchantId: MerchantId,
    request: ConfigurationRequest,
    checks: ConfigurationChecks = {},
  ): Promise<MerchantConfigurationView> {
    const countryVats = request.merchantCountryConfigurations && (await this.toCountryVats(request.merchantCountryConfigurations));
    const installmentPolicy = request.installments && (await this.toInstallmentPolicy(request.installments));
    const routing = request.routing && routingRulesFrom(request.routing);
    try {
      return await this.unitOfWork.run(async (tx) => {
        await this.access.loadVisible(caller, merchantId, tx);
        if (routing && checks.routing) await checks.routing(merchantId, routing, tx);
        const configuration = await this.load(tx, merchantId, true);
        const { payoutSchedule, installments: _installments, routing: _routing, ...settings } = request;
        configuration.apply({
          ...settings,
          countryVats,
          installmentPolicy,
          routing,
          payoutSchedule: payoutSchedule && payoutScheduleFrom(payoutSchedule),
        });
        await this.configurations.save(tx, configuration, new Date(), countryVats !== undefined);
        return this.view(tx, merchantId);
      });
    } catch (error) {
      if (error instanceof ShortNameTakenError) {
        throw invalid('shortName is already taken by another merchant', 'shortName ya está en uso por otro comercio');
      }
      throw error;
    }
  }

  private async toInstallmentPolicy(requested: InstallmentPolicyRequest): Promise<InstallmentPolicy> {
    const currencies = new Map(
      await Promise.all(
        INSTALLMENT_COUNTRIES.map(async (iso3) => [iso3, (await this.catalog.findCountryByIso3(iso3))?.currencies ?? []] as const),
      ),
    );
    return installmentPolicyFrom(requested, (iso3) => currencies.get(iso3) ?? []);
  }

  private async toCountryVats(requested: NonNullable<ConfigurationRequest['merchantCountryConfigurations']>): Promise<CountryVat[]> {
    const result: CountryVat[] = [];
    for (const entry of requested) {
      const country = await this.catalog.findCountryByIso3(entry.countryIsoAlpha3);
      if (!country) {
        throw invalid(`${entry.countryIsoAlpha3} is not a supported country`, `${entry.countryIsoAlpha3} no es un país admitido`);
      }
      const rateBp = vatPercentageToBasisPoints(entry.vatPercentage);
      if (rateBp === null || !country.vatRatesBp.includes(rateBp)) {
        const allowed = country.vatRatesBp.map(basisPointsToVatPercentage).join(', ');
        throw invalid(
          `vatPercentage ${entry.vatPercentage} is not allowed in ${country.iso3} (allowed: ${allowed})`,
          `vatPercentage ${entry.vatPercentage} no está permitido en ${country.iso3} (permitidos: ${allowed})`,
        );
      }
      result.push({ countryId: country.countryId, vatRateBp: rateBp });
    }
    return result;
  }

  private async load(tx: Transaction, merchantId: MerchantId, lock: boolean): Promise<MerchantConfiguration> {
    const configuration = await this.configurations.load(tx, merchantId, lock);
    if (!configuration) throw new DomainError('MERCHANT_NOT_FOUND');
    return configuration;
  }

  private async view(tx: Transaction, merchantId: MerchantId): Promise<MerchantConfigurationView> {
    const configuration = (await this.load(tx, merchantId, false)).snapshot();
    const countryConfigurations = [];
    for (const stored of await this.configurations.countryVats(tx, merchantId)) {
      const country = await this.catalog.findCountryById(stored.countryId);
      if (country)
        countryConfigurations.push({
          merchantCountryConfigurationId: stored.merchantCountryConfigurationId,
          country,
          vatRateBp: stored.vatRateBp,
        });
    }
    return { configuration, countryConfigurations };
  }
}
