import { Injectable } from '@nestjs/common';
import { inTransaction } from '@pcs/database';
import { InjectDataSource } from '@nestjs/typeorm';
import { CatalogService } from '@pcs/catalog';
import { Caller, DomainError, InvalidRequestError, isMerchantCaller } from '@pcs/kernel';
import { MerchantCountryProcessorService } from '@pcs/merchants';
import { PayerRequest, PayerService } from '@pcs/payers';
import * as crypto from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentInstrument } from './domain/payment-instrument';
import { instrumentFromRow, instrumentToRow } from './persistence/payment-instrument.mapper';
import { PaymentInstrumentOrmEntity } from './persistence/payment-instrument.orm-entity';

export interface PaymentInstrumentRequest {
  payerId: string;
  payerData?: PayerRequest;
  paymentMethodName: string;
  /** Narrows the processor when a method has several instrument types (VISA credit or debit). */
  paymentInstrumentTypeName?: string;
  /** ISO 3166 alpha-3 codes where the instrument may be used; defaults to `country`. */
  countries?: string[];
  metadata?: Record<string, unknown>;
  country: string;
}

/** An instrument as shown: the aggregate plus what the catalogue says of it. */
export interface PaymentInstrumentView {
  readonly instrument: PaymentInstrument;
  readonly paymentMethodName: string;
}

const MAX_LISTED = 100;

@Injectable()
export class PaymentInstrumentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly payers: PayerService,
    private readonly processors: MerchantCountryProcessorService,
    private readonly catalog: CatalogService,
  ) {}

  /**
   * Operation 27. The payer's ACTIVE instrument for the same method, type and
   * country is used when there is one; otherwise one is created. Only for a
   * method the merchant offers (an ACTIVE, active country processor) there.
   */
  async create(caller: Caller, request: PaymentInstrumentRequest): Promise<PaymentInstrumentView> {
    return inTransaction(this.dataSource, (manager) => this.createWithin(manager, caller, request));
  }

  async createWithin(manager: EntityManager, caller: Caller, request: PaymentInstrumentRequest): Promise<PaymentInstrumentView> {
    const payer = request.payerData
      ? await this.payers.completeWithin(manager, caller, request.payerId, this.payerDataFor(request))
      : await this.payers.loadVisible(caller, request.payerId, manager, true);
    const { merchantId, payerId } = payer.snapshot();

    const country = await this.catalog.findCountryByIso3(request.country);
    if (!country) throw new InvalidRequestError(['country'], 'country is not a supported country');
    const countries = [...new Set(request.countries ?? [country.iso3])];
    for (const code of countries) {
      if (!(await this.catalog.findCountryByIso3(code)))
        throw new InvalidRequestError(['countries'], `countries: ${code} is not a supported country`);
    }

    const candidates = (await this.processors.offeredCountryProcessors(merchantId, manager)).filter(
      (p) =>
        p.country.iso3 === country.iso3 &&
        p.paymentMethod.name === request.paymentMethodName &&
        (!request.paymentInstrumentTypeName || p.paymentInstrumentType.name === request.paymentInstrumentTypeName),
    );
    if (candidates.length === 0) {
      const method = [request.paymentMethodName, request.paymentInstrumentTypeName].filter(Boolean).join(' ');
      throw new DomainError('PAYMENT_METHOD_NOT_AVAILABLE', `the merchant has no active processor for ${method} in ${country.iso3}`, {
        method,
        country: country.iso3,
      });
    }
    const types = [...new Set(candidates.map((p) => p.paymentInstrumentType.paymentInstrumentTypeId))];
    const paymentInstrumentTypeId = types.length === 1 ? types[0] : null;
    const paymentMethodId = candidates[0].paymentMethod.paymentMethodId;

    const existing = await manager.findOne(PaymentInstrumentOrmEntity, {
      where: {
        payerId,
        paymentMethodId,
        countryId: country.countryId,
        status: 'ACTIVE',
        ...(paymentInstrumentTypeId ? { paymentInstrumentTypeId } : {}),
      },
      order: { createdAt: 'DESC' },
    });
    if (existing) return { instrument: instrumentFromRow(existing), paymentMethodName: request.paymentMethodName };

    const instrument = PaymentInstrument.create({
      paymentInstrumentId: crypto.randomUUID(),
      businessId: caller.businessId,
      merchantId,
      payerId,
      paymentMethodId,
      paymentInstrumentTypeId,
      countryId: country.countryId,
      countries,
      metadata: request.metadata ?? null,
      createdAt: new Date(),
    });
    await manager.save(instrumentToRow(instrument));
    return { instrument, paymentMethodName: request.paymentMethodName };
  }

  /** Operation 28. */
  async get(caller: Caller, paymentInstrumentId: string): Promise<PaymentInstrumentView> {
    return (await this.views([await this.loadVisible(caller, paymentInstrumentId)]))[0];
  }

  /** An instrument the caller may see, whose payer still exists; PAYMENT_INSTRUMENT_NOT_FOUND otherwise. */
  async loadVisible(
    caller: Caller,
    paymentInstrumentId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PaymentInstrument> {
    const row = await manager.findOne(PaymentInstrumentOrmEntity, {
      where: { paymentInstrumentId, businessId: caller.businessId, ...(isMerchantCaller(caller) ? { merchantId: caller.merchantId } : {}) },
    });
    if (!row || !(await this.payers.liveIds(caller, [row.payerId], manager)).has(row.payerId))
      throw new DomainError('PAYMENT_INSTRUMENT_NOT_FOUND');
    return instrumentFromRow(row);
  }

  /** Operations 16 and 25: a payer's instruments, newest first. */
  async listOfPayer(caller: Caller, payerId: string): Promise<PaymentInstrumentView[]> {
    await this.payers.loadVisible(caller, payerId);
    const rows = await this.dataSource.manager.find(PaymentInstrumentOrmEntity, { where: { payerId }, order: { createdAt: 'DESC' } });
    return this.views(rows.map(instrumentFromRow));
  }

  /** Operation 26: the caller's instruments (optionally one merchant's), newest first, at most 100. */
  async list(caller: Caller, merchantId?: string): Promise<PaymentInstrumentView[]> {
    const rows = await this.dataSource.manager.find(PaymentInstrumentOrmEntity, {
      where: {
        businessId: caller.businessId,
        ...(isMerchantCaller(caller) ? { merchantId: caller.merchantId } : merchantId ? { merchantId } : {}),
      },
      order: { createdAt: 'DESC', paymentInstrumentId: 'ASC' },
      take: MAX_LISTED,
    });
    const live = await this.payers.liveIds(
      caller,
      rows.map((r) => r.payerId),
    );
    return this.views(rows.filter((r) => live.has(r.payerId)).map(instrumentFromRow));
  }

  /** The gateway's token for an instrument, if it has one. */
  async tokenOf(paymentInstrumentId: string): Promise<string | null> {
    const row = await this.dataSource.manager.findOne(PaymentInstrumentOrmEntity, {
      where: { paymentInstrumentId },
      select: { externalId: true, paymentInstrumentId: true },
    });
    return row?.externalId ?? null;
  }

  /** Keeps what a gateway handed back for the instrument: its token and masked card data. */
  async recordGatewayData(
    manager: EntityManager,
    paymentInstrumentId: string,
    data: { externalId: string; cardBrand?: string; cardLast4?: string },
  ): Promise<void> {
    const row = await manager.findOne(PaymentInstrumentOrmEntity, { where: { paymentInstrumentId }, lock: { mode: 'pessimistic_write' } });
    if (!row) return;
    const instrument = instrumentFromRow(row);
    instrument.recordGatewayData(data, new Date());
    await manager.save(instrumentToRow(instrument));
  }

  /** The first approved payment validates the instrument. */
  async markValidated(manager: EntityManager, paymentInstrumentId: string): Promise<void> {
    await manager.update(PaymentInstrumentOrmEntity, { paymentInstrumentId, validated: false }, { validated: true, updatedAt: new Date() });
  }

  private payerDataFor(request: PaymentInstrumentRequest): PayerRequest {
    const { merchantId: _merchantId, ...rest } = request.payerData ?? {};
    return rest;
  }

  private async views(instruments: PaymentInstrument[]): Promise<PaymentInstrumentView[]> {
    const methods = new Map((await this.catalog.listPaymentMethods()).map((m) => [m.paymentMethodId, m.name]));
    return instruments.map((instrument) => ({ instrument, paymentMethodName: methods.get(instrument.snapshot().paymentMethodId) ?? '' }));
  }
}
