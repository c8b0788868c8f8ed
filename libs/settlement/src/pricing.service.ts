import { Injectable } from '@nestjs/common';
import { CatalogService, CountryProcessor, FixedFees } from '@pcs/catalog';
import {
  Currency,
  DISPUTE_PROCESSORS,
  DomainError,
  LiquidationSource,
  MerchantId,
  Money,
  MoneyError,
  scaledIntegerToDecimal,
  Transaction,
  UnitOfWork,
} from '@pcs/kernel';
import { MerchantCountryProcessorService } from '@pcs/merchants';
import { BusinessCalendar } from './domain/business-calendar';
import { calendarOf } from './domain/country-calendar';
import { feesOf, MAX_SETTLEMENT_DELAY_DAYS, MerchantPrice, percentageToBasisPoints } from './domain/price';
import { PricingRepository } from './settlement.repository';

/** What an approval fixes on a payin for good (contract §19), minor units. */
export interface ApprovalTerms {
  readonly feeAmount: number;
  readonly feeTaxAmount: number;
  /** When the money becomes available (the payin's liquidationDate). */
  readonly availableOn: Date;
  /** PROCESSOR when availableOn is the processor's own release date (contract §23), CALENDAR when it is our delay. */
  readonly liquidationSource: LiquidationSource;
}

/** The operator's change of a price (`pricing:set`): what is not given keeps its value. */
export interface PriceChange {
  /** 0–20, at most two decimals. */
  readonly percentage: number;
  /** A fixed fee (wire amount, major units) in a currency. */
  readonly fixed?: { readonly currency: Currency; readonly amount: number };
  readonly settlementDelayDays?: number;
}

export class PricingError extends Error {}

/**
 * Prices (contract §19): what each merchant pays for each country processor
 * — its own price, set by the operator, or the catalog's — and the terms an
 * approval fixes with it: the fee, the tax on the fee, and the moment the
 * money becomes available, counted in the country's business days.
 */
@Injectable()
export class PricingService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly catalog: CatalogService,
    private readonly prices: PricingRepository,
    private readonly calendar: BusinessCalendar,
    private readonly relationships: MerchantCountryProcessorService,
  ) {}

  /** The merchant's price for a country processor: its own, or the catalog's. */
  async priceOf(merchantId: MerchantId, processor: CountryProcessor, tx: Transaction = this.unitOfWork.outside): Promise<MerchantPrice> {
    const own = (await this.prices.pricesOf(tx, merchantId)).get(processor.countryProcessorId);
    return own
      ? { ...own, custom: true }
      : { ...processor.defaultPrice, settlementDelayDays: processor.settlementDelayDays, custom: false };
  }

  /** The prices of a merchant's country processors, by country processor id. */
  async pricesOf(merchantId: MerchantId, processors: readonly CountryProcessor[]): Promise<Map<string, MerchantPrice>> {
    const prices = new Map<string, MerchantPrice>();
    for (const processor of processors) prices.set(processor.countryProcessorId, await this.priceOf(merchantId, processor));
    return prices;
  }

  /**
   * The terms of a collection approved at `approvedAt` for `received` through
   * a country processor: the merchant's price now, the country's tax on fees,
   * and, unless the processor told its own release date (`releasedOn`:
   * Mercado Pago's money_release_date; contract §23), the processor's
   * settlement delay in the country's business days. A collection with no
   * processor (none today) pays nothing and is available at once. Safe
   * inside the approval's transaction: prices are read through the
   * process's memory (the approval writes none).
   */
  async approvalTerms(
    input: { merchantId: MerchantId; countryProcessorId: string | null; received: Money; approvedAt: Date; releasedOn?: Date },
    tx: Transaction = this.unitOfWork.outside,
  ): Promise<ApprovalTerms> {
    const [processor] = input.countryProcessorId ? await this.catalog.findCountryProcessors([input.countryProcessorId]) : [];
    const released = input.releasedOn && { availableOn: input.releasedOn, liquidationSource: 'PROCESSOR' as const };
    if (!processor)
      return { feeAmount: 0, feeTaxAmount: 0, ...(released ?? { availableOn: input.approvedAt, liquidationSource: 'CALENDAR' }) };
    const price = await this.priceOf(input.merchantId, processor, tx);
    const fees = feesOf(input.received, price, processor.country.feeTaxBp);
    return {
      feeAmount: fees.fee.minor,
      feeTaxAmount: fees.feeTax.minor,
      ...(released ?? {
        availableOn: this.calendar.availableOn(calendarOf(processor.country), input.approvedAt, price.settlementDelayDays),
        liquidationSource: 'CALENDAR',
      }),
    };
  }

  /**
   * The smallest total a merchant may collect through a country processor in
   * a currency (contract §24), minor units: the catalog's minimum, and at
   * least the smallest amount whose fee and tax on the fee leave the
   * merchant something (with the merchant's own price).
   */
  async minimumOf(merchantId: MerchantId, processor: CountryProcessor, currency: Currency, tx?: Transaction): Promise<number> {
    const price = await this.priceOf(merchantId, processor, tx);
    const nets = (amount: number) => feesOf(Money.ofMinor(amount, currency), price, processor.country.feeTaxBp).net.minor > 0;
    // The net grows with the amount (a fee is at most 20 % plus a fixed part): the first amount that nets something, by halves.
    let low = 1;
    let high = 1;
    while (!nets(high) && high < Number.MAX_SAFE_INTEGER / 4) high *= 2;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (nets(middle)) high = middle;
      else low = middle + 1;
    }
    return Math.max(processor.minimumAmount[currency] ?? 0, low);
  }

  /** Refuses a collection below the processor's minimum (400 Payins:AMOUNT_BELOW_MINIMUM, with the minimum). */
  async assertAboveMinimum(merchantId: MerchantId, processor: CountryProcessor, total: Money, tx?: Transaction): Promise<void> {
    const minimum = await this.minimumOf(merchantId, processor, total.currency, tx);
    if (total.minor < minimum)
      throw new DomainError('AMOUNT_BELOW_MINIMUM', undefined, {
        minimumAmount: Money.ofMinor(minimum, total.currency).toWire(),
        currency: total.currency,
        paymentMethod: processor.paymentMethod.name,
      });
  }

  /** The catalog's `disputeFee` of a processor in a currency (`pricing:dispute-fee`), minor units: what each dispute costs there. */
  async setDisputeFee(processor: string, currency: Currency, amount: number): Promise<number> {
    if (!(DISPUTE_PROCESSORS as readonly string[]).includes(processor))
      throw new PricingError(`--processor must be ${DISPUTE_PROCESSORS.slice(0, -1).join(', ')} or ${DISPUTE_PROCESSORS.at(-1)}`);
    let minor: number;
    try {
      minor = amount === 0 ? 0 : Money.fromWire(amount, currency).minor;
    } catch (error) {
      if (error instanceof MoneyError) throw new PricingError(`--amount: ${error.message}`);
      throw error;
    }
    await this.prices.putDisputeFee(this.unitOfWork.outside, processor, currency, minor, new Date());
    return minor;
  }

  /**
   * The operator's `pricing:set` for a merchant country processor (its
   * relationship id): the percentage, and optionally a fixed fee in a currency
   * and the settlement delay; what is not given keeps the price's current
   * value (its own, or the catalog's the first time).
   */
  async set(
    merchantId: MerchantId,
    merchantCountryProcessorId: string,
    change: PriceChange,
  ): Promise<{ merchantCountryProcessorId: string; countryProcessorId: string; price: MerchantPrice }> {
    const relationship = await this.relationships.findForOperator(merchantCountryProcessorId);
    if (!relationship || relationship.relationship.merchantId !== merchantId)
      throw new PricingError('no country processor of that merchant has that id');
    const percentageBp = percentageToBasisPoints(change.percentage);
    if (percentageBp === null) throw new PricingError('--percentage must be 0 to 20 with at most two decimals');
    const delay = change.settlementDelayDays;
    if (delay !== undefined && (!Number.isInteger(delay) || delay < 0 || delay > MAX_SETTLEMENT_DELAY_DAYS))
      throw new PricingError(`--settlement-delay-days must be a whole number from 0 to ${MAX_SETTLEMENT_DELAY_DAYS}`);
    const processor = relationship.countryProcessor;
    let fixed: FixedFees | undefined;
    if (change.fixed) {
      if (!processor.currencies.includes(change.fixed.currency))
        throw new PricingError(`${processor.paymentMethod.name} in ${processor.country.iso3} does not take ${change.fixed.currency}`);
      let minor: number;
      try {
        // A fixed fee of 0 is allowed (it removes one): read as a positive amount, or zero.
        minor = change.fixed.amount === 0 ? 0 : Money.fromWire(change.fixed.amount, change.fixed.currency).minor;
      } catch (error) {
        if (error instanceof MoneyError) throw new PricingError(`--fixed: ${error.message}`);
        throw error;
      }
      fixed = { [change.fixed.currency]: minor };
    }
    return this.unitOfWork.run(async (tx) => {
      const current = await this.priceOf(merchantId, processor, tx);
      const price: MerchantPrice = {
        percentageBp,
        fixed: fixed ? { ...current.fixed, ...fixed } : current.fixed,
        settlementDelayDays: delay ?? current.settlementDelayDays,
        custom: true,
      };
      await this.prices.put(tx, merchantId, processor.countryProcessorId, price, new Date());
      return { merchantCountryProcessorId, countryProcessorId: processor.countryProcessorId, price };
    });
  }
}

/** A price as the API and the operator's commands show it (wire amounts). */
export function pricingRepresentation(price: MerchantPrice) {
  return {
    percentage: scaledIntegerToDecimal(price.percentageBp, 2),
    fixed: Object.entries(price.fixed)
      .filter(([, amount]) => amount !== undefined && amount > 0)
      .map(([currency, amount]) => ({ currency, amount: Money.ofMinor(amount, currency as Currency).toWire() }))
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    settlementDelayDays: price.settlementDelayDays,
  };
}
