import { Injectable } from '@nestjs/common';
import { CountryProcessor } from '@pcs/catalog';
import { MerchantCountryProcessorService } from '@pcs/merchants';
import { PaymentIntent } from './domain/payment-intent';
import { Currency, MerchantId, Transaction, UnitOfWork } from '@pcs/kernel';

/**
 * Where a payment intent can be paid (operation 20, and the check behind
 * operations 18 and 21 and off-session charges): the merchant's ACTIVE,
 * active processors in the intent's country that take its currency, narrowed
 * to the method or instrument type a fast intent chose, or the methods a B2B
 * intent allows.
 */
@Injectable()
export class AvailableProcessorsService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly processors: MerchantCountryProcessorService,
  ) {}

  /** The merchant's processor for a saved instrument's method (and type, when it has one) in a country and currency. */
  async forInstrument(
    merchantId: string,
    countryId: string,
    currency: string,
    instrument: { readonly paymentMethodId: string; readonly paymentInstrumentTypeId: string | null },
    tx: Transaction = this.unitOfWork.outside,
  ): Promise<CountryProcessor | undefined> {
    return (await this.processors.offeredCountryProcessors(merchantId as MerchantId, tx)).find(
      (cp) =>
        cp.country.countryId === countryId &&
        cp.currencies.includes(currency as Currency) &&
        cp.paymentMethod.paymentMethodId === instrument.paymentMethodId &&
        (!instrument.paymentInstrumentTypeId || cp.paymentInstrumentType.paymentInstrumentTypeId === instrument.paymentInstrumentTypeId),
    );
  }

  async of(intent: PaymentIntent, tx: Transaction = this.unitOfWork.outside): Promise<CountryProcessor[]> {
    const p = intent.snapshot();
    return (await this.processors.offeredCountryProcessors(p.merchantId, tx)).filter(
      (cp) =>
        cp.country.countryId === p.countryId &&
        cp.currencies.includes(p.currency) &&
        (!p.preferredPaymentMethod || cp.paymentMethod.name === p.preferredPaymentMethod) &&
        (!p.preferredInstrumentType || cp.paymentInstrumentType.name === p.preferredInstrumentType) &&
        (!p.allowedPaymentMethods || p.allowedPaymentMethods.includes(cp.paymentMethod.name)),
    );
  }
}
