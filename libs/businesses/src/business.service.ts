import { Injectable } from '@nestjs/common';
import { CatalogService, CountryProcessor, PaymentMethod } from '@pcs/catalog';
import { BusinessRepository } from './business.repository';
import { CredentialService } from './credential.service';
import { IssuedCredentials } from './domain/credential';
import { BusinessId, newId, Transaction, UnitOfWork } from '@pcs/kernel';

export interface CreatedBusiness extends IssuedCredentials {
  readonly businessId: BusinessId;
  readonly name: string;
}

export interface BusinessCountryProcessor {
  readonly businessCountryProcessorId: string;
  readonly countryProcessor: CountryProcessor;
}

@Injectable()
export class BusinessService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly credentials: CredentialService,
    private readonly catalog: CatalogService,
    private readonly businesses: BusinessRepository,
  ) {}

  /**
   * A new business with every active country processor of the platform
   * enabled for it, and its first credentials, in one transaction.
   */
  async create(name: string): Promise<CreatedBusiness> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 128) throw new Error('a business name has 1 to 128 characters');
    const processors = (await this.catalog.listCountryProcessors()).filter((p) => p.active);
    return this.unitOfWork.run(async (tx) => {
      const businessId = newId<BusinessId>();
      await this.businesses.insert(tx, { businessId, name: trimmed });
      await this.businesses.enableCountryProcessors(
        tx,
        businessId,
        processors.map((p) => p.countryProcessorId),
      );
      const issued = await this.credentials.issue({ businessId, merchantId: null }, tx);
      return { businessId, name: trimmed, ...issued };
    });
  }

  async exists(businessId: BusinessId): Promise<boolean> {
    return this.businesses.exists(this.unitOfWork.outside, businessId);
  }

  /** Operation 38: the country processors enabled for the business. */
  async listCountryProcessors(businessId: BusinessId): Promise<BusinessCountryProcessor[]> {
    const rows = await this.businesses.enabledCountryProcessors(this.unitOfWork.outside, businessId);
    const processors = new Map((await this.catalog.listCountryProcessors()).map((p) => [p.countryProcessorId, p]));
    return rows.flatMap((row) => {
      const countryProcessor = processors.get(row.countryProcessorId);
      return countryProcessor ? [{ businessCountryProcessorId: row.businessCountryProcessorId, countryProcessor }] : [];
    });
  }

  /** Operation 10: payment methods of the active country processors enabled for the business. */
  async availablePaymentMethods(businessId: BusinessId): Promise<PaymentMethod[]> {
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
    businessId: BusinessId,
    countryProcessorIds: readonly string[],
    tx: Transaction = this.unitOfWork.outside,
  ): Promise<Set<string>> {
    return this.businesses.enabledAmong(tx, businessId, countryProcessorIds);
  }
}
