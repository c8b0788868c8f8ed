import { AlreadyRecordedError } from '../domain/already-recorded';
import { Injectable } from '@nestjs/common';
import { CatalogService, Country } from '@pcs/catalog';
import {
  asPaymentIntentId,
  basisPointsToVatPercentage,
  Caller,
  Currency,
  DomainError,
  InvalidRequestError,
  MerchantId,
  newId,
  PaymentIntentId,
  tenantScope,
  Transaction,
  UnitOfWork,
  vatPercentageToBasisPoints,
} from '@pcs/kernel';
import { MerchantConfigurationService } from '@pcs/merchants';
import { PaymentAttemptsService } from '../attempts/payment-attempts.service';
import { PaymentIntent } from '../domain/payment-intent';
import { PaymentIntentRepository } from '../payment-intent.repository';
import { PayinRepository } from '../ledger/payin.repository';

/** What every way of creating a payment intent shares: the country and currency, the VAT rate, and resuming an operation. */
@Injectable()
export class CreationRules {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly catalog: CatalogService,
    private readonly configurations: MerchantConfigurationService,
    private readonly intents: PaymentIntentRepository,
    private readonly ledger: PayinRepository,
    private readonly attempts: PaymentAttemptsService,
  ) {}

  /** A supported country that takes the currency (contract §8). */
  async countryAccepting(iso3: string, currency: Currency): Promise<Country> {
    const country = await this.catalog.findCountryByIso3(iso3);
    if (!country) throw new InvalidRequestError(['country'], `${iso3} is not a supported country`);
    if (!country.currencies.includes(currency))
      throw new DomainError('CURRENCY_NOT_ACCEPTED', undefined, { currency, country: country.iso3 });
    return country;
  }

  /** The request's VAT if given, else the merchant's for the country, else the country's default; always one the country allows. */
  async vatRate(merchantId: MerchantId, country: Country, requested: number | undefined, tx?: Transaction): Promise<number> {
    let rate: number | null;
    if (requested !== undefined) {
      rate = vatPercentageToBasisPoints(requested);
    } else {
      rate = (await this.configurations.vatRateFor(merchantId, country.countryId, tx)) ?? country.defaultVatRateBp;
    }
    if (rate === null || !country.vatRatesBp.includes(rate)) {
      throw new DomainError('VAT_RATE_NOT_ALLOWED', undefined, {
        vat: String(requested ?? ''),
        country: country.iso3,
        allowed: country.vatRatesBp.map(basisPointsToVatPercentage).join(', '),
      });
    }
    return rate;
  }

  /**
   * Every creation's shape: under an operation id (from the request's
   * Idempotency-Key), what an earlier run committed is answered (`resume`);
   * otherwise `write` creates with the id (a new one without an operation).
   * An intent already recorded under the id means the same operation committed
   * meanwhile (a retry racing its own first attempt): its result is answered.
   */
  async once<T>(
    operationId: string | undefined,
    resume: (paymentIntentId: PaymentIntentId) => Promise<T | null>,
    write: (paymentIntentId: PaymentIntentId) => Promise<T>,
  ): Promise<T> {
    const paymentIntentId = operationId ? asPaymentIntentId(operationId) : newId<PaymentIntentId>();
    if (operationId) {
      const earlier = await resume(paymentIntentId);
      if (earlier) return earlier;
    }
    try {
      return await write(paymentIntentId);
    } catch (error) {
      if (!(error instanceof AlreadyRecordedError) || error.record !== 'PAYMENT_INTENT') throw error;
      const made = await resume(paymentIntentId);
      if (!made) throw error;
      return made;
    }
  }

  /**
   * An intent this operation already committed (its id is the operation's),
   * carried on: an off-session charge whose answer was never recorded is sent
   * again (the gateway answers a repeated charge with its first outcome).
   */
  async resume(caller: Caller, paymentIntentId: PaymentIntentId): Promise<PaymentIntent | null> {
    if (!(await this.intents.findById(this.unitOfWork.outside, paymentIntentId))) return null;
    const intent = await this.intents.getVisible(this.unitOfWork.outside, tenantScope(caller), paymentIntentId);
    const charge = await this.ledger.openOffSessionCharge(this.unitOfWork.outside, intent.id);
    if (!charge) return intent;
    await this.attempts.chargeOffSession(charge.id);
    return (await this.intents.findById(this.unitOfWork.outside, intent.id)) ?? intent;
  }
}
