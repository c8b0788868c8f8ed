import { Injectable } from '@nestjs/common';
import { BusinessService, CredentialService, IssuedCredentials } from '@pcs/businesses';
import { CatalogService, CountryProcessor, PaymentMethod } from '@pcs/catalog';
import {
  BusinessId,
  Caller,
  DomainError,
  InvalidRequestError,
  isBusinessWide,
  MerchantId,
  newId,
  Page,
  PageRequest,
  TenantScope,
  tenantScope,
  Transaction,
  UnitOfWork,
} from '@pcs/kernel';
import * as crypto from 'node:crypto';
import { Merchant, MerchantChanges, MerchantProps } from './domain/merchant';
import { MerchantConfiguration } from './domain/merchant-configuration';
import { MerchantAccess } from './merchant-access';
import { MerchantCountryProcessorService } from './merchant-country-processor.service';
import { MerchantConfigurationRepository, MerchantRepository } from './merchant.repository';

/** A merchant as shown to a caller: credentials only for its owning business. */
export interface MerchantView {
  readonly merchant: Readonly<MerchantProps>;
  readonly credentials: IssuedCredentials | null;
}

export interface MerchantUpdate extends MerchantChanges {
  /** Country processors to relate to the merchant (added; existing ones stay). */
  countryProcessorsId?: string[];
}

export interface CreatedMerchant extends IssuedCredentials {
  readonly merchantId: MerchantId;
  readonly businessId: BusinessId;
  readonly status: string;
}

@Injectable()
export class MerchantService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly access: MerchantAccess,
    private readonly catalog: CatalogService,
    private readonly credentials: CredentialService,
    private readonly businesses: BusinessService,
    private readonly processors: MerchantCountryProcessorService,
    private readonly merchants: MerchantRepository,
    private readonly configurations: MerchantConfigurationRepository,
  ) {}

  /**
   * Operator command: a merchant of a business in a country, with its default
   * configuration and its own credentials. With `approve`, it is ACTIVE and
   * related to every country processor of its country.
   */
  async create(input: { businessId: BusinessId; name: string; countryIso3: string; approve: boolean }): Promise<CreatedMerchant> {
    const country = await this.catalog.findCountryByIso3(input.countryIso3);
    if (!country) throw new Error(`unknown country ${input.countryIso3}`);
    if (!(await this.businesses.exists(input.businessId))) throw new Error('no business has that id');
    const ofCountry = await this.catalog.countryProcessorsOfCountry(country.iso3);
    return this.unitOfWork.run(async (tx) => {
      const now = new Date();
      const merchant = Merchant.create({
        merchantId: newId<MerchantId>(),
        businessId: input.businessId,
        countryId: country.countryId,
        merchantName: input.name,
        currencies: [...country.currencies],
        now,
      });
      await this.merchants.insert(tx, merchant);
      await this.configurations.insert(tx, MerchantConfiguration.createDefault(crypto.randomUUID(), merchant.id), now);
      if (input.approve) {
        await this.processors.relateWithin(
          tx,
          input.businessId,
          merchant.id,
          ofCountry.filter((p) => p.active).map((p) => p.countryProcessorId),
        );
        await this.approveWithin(tx, merchant.id);
      }
      const issued = await this.credentials.issue({ businessId: input.businessId, merchantId: merchant.id }, tx);
      return { merchantId: merchant.id, businessId: input.businessId, status: input.approve ? 'ACTIVE' : 'ONBOARDING', ...issued };
    });
  }

  /** Operator command: ACTIVE, and every pending processor relationship onboarded. */
  async approve(merchantId: MerchantId): Promise<Readonly<MerchantProps>> {
    return this.unitOfWork.run((tx) => this.approveWithin(tx, merchantId));
  }

  async suspend(merchantId: MerchantId): Promise<Readonly<MerchantProps>> {
    return this.unitOfWork.run(async (tx) => {
      const merchant = await this.loadForOperator(tx, merchantId);
      merchant.suspend(new Date());
      await this.merchants.save(tx, merchant);
      return merchant.snapshot();
    });
  }

  /** Operation 1: the caller's merchants, newest first, optionally filtered. */
  async list(caller: Caller, page: PageRequest, searchTerm?: string): Promise<Page<MerchantView>> {
    const found = await this.merchants.list(this.unitOfWork.outside, tenantScope(caller), page, searchTerm);
    return {
      ...found,
      items: await this.withCredentials(
        caller,
        found.items.map((m) => m.snapshot()),
      ),
    };
  }

  /** Operation 2. */
  async get(caller: Caller, merchantId: MerchantId): Promise<MerchantView> {
    const merchant = await this.access.loadVisible(caller, merchantId);
    return (await this.withCredentials(caller, [merchant.snapshot()]))[0];
  }

  /** The merchant aggregate, for other contexts that need its rules (e.g. can it collect?). */
  /** What a read may see: the caller's scope, narrowed to a merchant it names (MERCHANT_NOT_FOUND if it may not see it). */
  scopeOf(caller: Caller, merchantId?: MerchantId | null): Promise<TenantScope> {
    return this.access.scopeOf(caller, merchantId);
  }

  async load(caller: Caller, merchantId: MerchantId, tx: Transaction = this.unitOfWork.outside): Promise<Merchant> {
    return this.access.loadVisible(caller, merchantId, tx);
  }

  /**
   * The merchant a request acts on (the rule of MerchantAccess.resolveMerchantId),
   * as an aggregate, read once: a named merchant is loaded with the tenancy check itself.
   */
  async resolve(caller: Caller, merchantId?: MerchantId, tx: Transaction = this.unitOfWork.outside): Promise<Merchant> {
    return this.load(caller, merchantId ?? (await this.access.resolveMerchantId(caller, undefined, tx)), tx);
  }

  /** A merchant by id for the service's own flows (gateway events, sweeps), which act for no caller; deleted ones too (records keep their names). */
  async findById(merchantId: MerchantId, tx: Transaction = this.unitOfWork.outside): Promise<Readonly<MerchantProps> | null> {
    return (await this.merchants.findById(tx, merchantId, { includeDeleted: true }))?.snapshot() ?? null;
  }

  /** Operation 3; joins the caller's transaction when given one (a settlement account set with it). */
  async update(caller: Caller, merchantId: MerchantId, changes: MerchantUpdate, within?: Transaction): Promise<MerchantView> {
    if (changes.address?.country !== undefined && !(await this.catalog.findCountryById(changes.address.country))) {
      throw new InvalidRequestError(['address.country'], 'address.country is not a known country id');
    }
    const bankCurrency = changes.account?.settlementBank?.currency;
    const currencies = changes.currencies;
    if (bankCurrency && currencies && !currencies.includes(bankCurrency)) {
      throw new InvalidRequestError(['account.settlementBank.currency'], 'the settlement currency must be one of the merchant currencies');
    }
    const work = async (tx: Transaction) => {
      const merchant = await this.access.loadVisible(caller, merchantId, tx, true);
      const { countryProcessorsId, ...merchantChanges } = changes;
      merchant.update(merchantChanges, new Date());
      await this.merchants.save(tx, merchant);
      if (countryProcessorsId?.length) await this.processors.relateWithin(tx, caller.businessId, merchant.id, countryProcessorsId);
      return merchant.snapshot();
    };
    const saved = within ? await work(within) : await this.unitOfWork.run(work);
    return (await this.withCredentials(caller, [saved]))[0];
  }

  /** Operation 4: soft delete; the merchant's own credentials stop working at once. */
  async delete(caller: Caller, merchantId: MerchantId): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      const merchant = await this.access.loadVisible(caller, merchantId, tx, true);
      merchant.delete(new Date());
      await this.merchants.save(tx, merchant);
      await this.credentials.revokeAllOfMerchant(merchant.id, tx);
    });
    // Other processes hear of it from the change feed; this one stops accepting them now.
    this.credentials.forgetCached();
  }

  /** Operation 5: the payment methods the merchant offers to payers. */
  async paymentMethods(caller: Caller, merchantId: MerchantId): Promise<PaymentMethod[]> {
    const offered = await this.offeredProcessors(caller, merchantId);
    const byId = new Map(offered.map((p) => [p.paymentMethod.paymentMethodId, p.paymentMethod]));
    return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The country processors through which the merchant collects (visible to the caller, 404 otherwise). */
  async offeredProcessors(caller: Caller, merchantId: MerchantId): Promise<CountryProcessor[]> {
    const id = (await this.access.loadVisible(caller, merchantId)).id;
    return this.processors.offeredCountryProcessors(id);
  }

  private async approveWithin(tx: Transaction, merchantId: MerchantId): Promise<Readonly<MerchantProps>> {
    const merchant = await this.loadForOperator(tx, merchantId);
    merchant.approve(new Date());
    await this.merchants.save(tx, merchant);
    await this.processors.completeOnboarding(merchantId, tx);
    return merchant.snapshot();
  }

  private async loadForOperator(tx: Transaction, merchantId: MerchantId): Promise<Merchant> {
    const merchant = await this.merchants.findById(tx, merchantId, { lock: true });
    if (!merchant) throw new DomainError('MERCHANT_NOT_FOUND');
    return merchant;
  }

  private async withCredentials(caller: Caller, merchants: Readonly<MerchantProps>[]): Promise<MerchantView[]> {
    // Contract §4: a merchant's key pair is shown to its owning business only.
    const pairs = !isBusinessWide(tenantScope(caller))
      ? new Map()
      : await this.credentials.currentMerchantCredentials(merchants.map((m) => m.merchantId));
    return merchants.map((merchant) => ({ merchant, credentials: pairs.get(merchant.merchantId) ?? null }));
  }
}
