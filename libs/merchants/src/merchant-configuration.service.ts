import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CatalogService, Country } from '@pcs/catalog';
import { inTransaction, isUniqueViolation } from '@pcs/database';
import { basisPointsToVatPercentage, Caller, DomainError, vatPercentageToBasisPoints } from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { CountryVat, MerchantConfiguration, MerchantConfigurationProps } from './domain/merchant-configuration';
import { MerchantAccess } from './merchant-access';
import { configurationFromRows } from './persistence/merchant.mapper';
import { MerchantConfigurationOrmEntity, MerchantCountryConfigurationOrmEntity } from './persistence/merchant-configuration.orm-entity';

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
}

function invalid(reason: string, reasonEs: string): DomainError {
  return new DomainError('ERROR_IN_UPDATE_MERCHANT_CONFIGURATION', reason, { reason, reasonEs });
}

@Injectable()
export class MerchantConfigurationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
  ) {}

  /** Operation 6. */
  async get(caller: Caller, merchantId: string): Promise<MerchantConfigurationView> {
    await this.access.loadVisible(caller, merchantId);
    return this.view(this.dataSource.manager, merchantId);
  }

  /** The VAT rate (basis points) the merchant configured for a country, if any. */
  async vatRateFor(merchantId: string, countryId: string, manager: EntityManager = this.dataSource.manager): Promise<number | null> {
    const row = await manager.findOne(MerchantCountryConfigurationOrmEntity, {
      where: { merchantId, countryId },
      select: { vatRateBp: true, merchantCountryConfigurationId: true },
    });
    return row?.vatRateBp ?? null;
  }

  /** The merchant that takes fast payments under this short name, if any (case-insensitive). */
  async fastPaymentMerchantId(shortName: string): Promise<string | null> {
    const row = await this.dataSource.manager
      .createQueryBuilder(MerchantConfigurationOrmEntity, 'c')
      .select('c.merchant_id', 'merchantId')
      .where('lower(c.short_name) = lower(:shortName) AND c.fast_payments_enabled', { shortName })
      .getRawOne<{ merchantId: string }>();
    return row?.merchantId ?? null;
  }

  /**
   * Operation 7: applies the fields sent. `merchantCountryConfigurations`,
   * when sent, replaces the whole set; each VAT percentage must be one the
   * country allows.
   */
  async upsert(caller: Caller, merchantId: string, request: ConfigurationRequest): Promise<MerchantConfigurationView> {
    const countryVats = request.merchantCountryConfigurations && (await this.toCountryVats(request.merchantCountryConfigurations));
    try {
      return await inTransaction(this.dataSource, async (manager) => {
        await this.access.loadVisible(caller, merchantId, manager);
        const configuration = await this.load(manager, merchantId, true);
        configuration.apply({ ...request, countryVats });
        const next = configuration.snapshot();
        await manager.update(
          MerchantConfigurationOrmEntity,
          { merchantConfigurationId: next.merchantConfigurationId },
          {
            paymentSuccessNotification: next.paymentSuccessNotification,
            paymentErrorNotification: next.paymentErrorNotification,
            notificationEmails: next.notificationEmails,
            shortName: next.shortName,
            fastPaymentsEnabled: next.fastPaymentsEnabled,
            updatedAt: new Date(),
          },
        );
        if (countryVats) await this.replaceCountryVats(manager, merchantId, countryVats);
        return this.view(manager, merchantId);
      });
    } catch (error) {
      if (isUniqueViolation(error, 'merchant_configuration_short_name_idx')) {
        throw invalid('shortName is already taken by another merchant', 'shortName ya está en uso por otro comercio');
      }
      throw error;
    }
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

  private async replaceCountryVats(manager: EntityManager, merchantId: string, countryVats: CountryVat[]): Promise<void> {
    const existing = await manager.find(MerchantCountryConfigurationOrmEntity, { where: { merchantId } });
    const keep = new Set(countryVats.map((c) => c.countryId));
    const stale = existing.filter((row) => !keep.has(row.countryId));
    if (stale.length > 0) await manager.remove(stale);
    for (const vat of countryVats) {
      const row = existing.find((r) => r.countryId === vat.countryId);
      await manager.save(
        Object.assign(new MerchantCountryConfigurationOrmEntity(), {
          merchantCountryConfigurationId: row?.merchantCountryConfigurationId ?? crypto.randomUUID(),
          merchantId,
          countryId: vat.countryId,
          vatRateBp: vat.vatRateBp,
        }),
      );
    }
  }

  private async load(manager: EntityManager, merchantId: string, lock: boolean): Promise<MerchantConfiguration> {
    const row = await manager.findOne(MerchantConfigurationOrmEntity, {
      where: { merchantId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!row) throw new DomainError('MERCHANT_NOT_FOUND');
    const vats = await manager.find(MerchantCountryConfigurationOrmEntity, { where: { merchantId } });
    return configurationFromRows(row, vats);
  }

  private async view(manager: EntityManager, merchantId: string): Promise<MerchantConfigurationView> {
    const configuration = (await this.load(manager, merchantId, false)).snapshot();
    const rows = await manager.find(MerchantCountryConfigurationOrmEntity, { where: { merchantId }, order: { countryId: 'ASC' } });
    const countryConfigurations = [];
    for (const row of rows) {
      const country = await this.catalog.findCountryById(row.countryId);
      if (country)
        countryConfigurations.push({
          merchantCountryConfigurationId: row.merchantCountryConfigurationId,
          country,
          vatRateBp: row.vatRateBp,
        });
    }
    return { configuration, countryConfigurations };
  }
}
