import { Currency } from '@pcs/kernel';
import { Country, CountryProcessor, PaymentMethod } from '../domain/catalog.types';
import { CountryOrmEntity } from './country.orm-entity';
import { CountryProcessorOrmEntity } from './country-processor.orm-entity';
import { PaymentMethodOrmEntity } from './payment-method.orm-entity';

export function toCountry(row: CountryOrmEntity): Country {
  return { ...row, currencies: row.currencies as Currency[] };
}

export function toPaymentMethod(row: PaymentMethodOrmEntity): PaymentMethod {
  return { ...row };
}

export function toCountryProcessor(row: CountryProcessorOrmEntity): CountryProcessor {
  return {
    countryProcessorId: row.countryProcessorId,
    country: toCountry(row.country),
    paymentMethod: toPaymentMethod(row.paymentMethod),
    paymentInstrumentType: { ...row.paymentInstrumentType },
    active: row.active,
    currencies: row.currencies as Currency[],
    gateway: row.gateway,
    settlementDelayDays: row.settlementDelayDays,
    defaultPrice: { percentageBp: row.feeBp, fixed: { ...row.feeFixed } },
    minimumAmount: { ...row.minimumAmount },
  };
}
