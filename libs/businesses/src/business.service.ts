import { Injectable } from '@nestjs/common';
import { inTransaction } from '@pcs/database';
import { InjectDataSource } from '@nestjs/typeorm';
import { CatalogService, CountryProcessor, PaymentMethod } from '@pcs/catalog';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager, In } from 'typeorm';
import { CredentialService } from './credential.service';
import { IssuedCredentials } from './domain/credential';
import { BusinessOrmEntity } from './persistence/business.orm-entity';
import { BusinessCountryProcessorOrmEntity } from './persistence/business-country-processor.orm-entity';

export interface CreatedBusiness extends IssuedCredentials {
  readonly businessId: string;
  readonly name: string;
}

export interface BusinessCountryProcessor {
  readonly businessCountryProcessorId: string;
  readonly countryProcessor: CountryProcessor;
}

@Injectable()
export class BusinessService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly credentials: CredentialService,
    private readonly catalog: CatalogService,
  ) {}

  /**
   * A new business with every active country processor of the platform
   * enabled for it, and its first credentials, in one transaction.
   */
  async create(name: string): Promise<CreatedBusiness> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 128) throw new Error('a business name has 1 to 128 characters');
    const processors = (await this.catalog.listCountryProcessors()).filter((p) => p.active);
    return inTransaction(this.dataSource, async (manager) => {
      const businessId = crypto.randomUUID();
      await manager.insert(BusinessOrmEntity, { businessId, name: trimmed });
      await manager.insert(
        BusinessCountryProcessorOrmEntity,
        processors.map((p) => ({
          businessCountryProcessorId: crypto.randomUUID(),
          businessId,
          countryProcessorId: p.countryProcessorId,
        })),
      );
      const issued = await this.credentials.issue({ businessId, merchantId: null }, manager);
      return { businessId, name: trimmed, ...issued };
    });
  }

  async exists(businessId: string): Promise<boolean> {
    return this.dataSource.getRepository(BusinessOrmEntity).exists({ where: { businessId } });
  }

  /** Operation 38: the country processors enabled for the business. */
  async listCountryProcessors(businessId: string): Promise<BusinessCountryProcessor[]> {
    const rows = await this.dataSource
      .getRepository(BusinessCountryProcessorOrmEntity)
      .find({ where: { businessId }, order: { createdAt: 'ASC', countryProcessorId: 'ASC' } });
    const processors = new Map((await this.catalog.listCountryProcessors()).map((p) => [p.countryProcessorId, p]));
    return rows.flatMap((row) => {
      const countryProcessor = processors.get(row.countryProcessorId);
      return countryProcessor ? [{ businessCountryProcessorId: row.businessCountryProcessorId, countryProcessor }] : [];
    });
  }

  /** Operation 10: payment methods of the active country processors enabled for the business. */
  async availablePaymentMethods(businessId: string): Promise<PaymentMethod[]> {
    const enabled = await this.listCountryProcessors(businessId);
    const methods = new Map(
      enabled
        .filter((row) => row.countryProcessor.active)
        .map((row) => [row.countryProcessor.paymentMethod.paymentMethodId, row.countryProcessor.paymentMethod]),
    );
    return [...methods.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The subset of `countryProcessorIds` that is enabled for the business. */
  async enabledCountryProcessorIds(
    businessId: string,
    countryProcessorIds: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Set<string>> {
    if (countryProcessorIds.length === 0) return new Set();
    const rows = await manager.find(BusinessCountryProcessorOrmEntity, {
      where: { businessId, countryProcessorId: In([...countryProcessorIds]) },
      select: { countryProcessorId: true },
    });
    return new Set(rows.map((r) => r.countryProcessorId));
  }
}
