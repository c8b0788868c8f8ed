import { ApiProperty } from '@nestjs/swagger';
import { Currency, PaymentInstrumentTypeName, PaymentMethodName } from '@pcs/kernel';

export class CountryResponse {
  @ApiProperty({ format: 'uuid' }) countryId: string;
  @ApiProperty({ example: 'Uruguay' }) name: string;
  @ApiProperty({ example: 'Uruguay' }) nameEs: string;
  @ApiProperty({ example: 'UY' }) iso31662AlphabeticalCode: string;
  @ApiProperty({ example: 'URY' }) iso31663AlphabeticalCode: string;
  @ApiProperty({ example: 858, type: 'integer' }) iso3166NumericCode: number;
  @ApiProperty({ example: 'UYU' }) iso4217CurrencyCode: string;
  @ApiProperty({ example: 598, type: 'integer' }) phoneCode: number;
  @ApiProperty({ example: 'South America' }) continent: string;
  @ApiProperty({ type: [Number], example: [0, 10, 22], description: 'Allowed VAT percentages' }) vatPercentage: number[];
  @ApiProperty({ type: [String], example: ['UYU', 'USD'], description: 'Accepted currencies' }) currency: string[];
  @ApiProperty({ example: 'America/Montevideo', description: 'The IANA time zone its business days and local dates are counted in' })
  timeZone: string;
}

export class PaymentMethodSummaryResponse {
  @ApiProperty({ format: 'uuid' }) paymentMethodId: string;
  @ApiProperty({ enum: PaymentMethodName }) paymentMethodName: string;
  @ApiProperty({ example: 'http://localhost:3000/assets/payment-methods/visa.svg' }) imageUrl: string;
  @ApiProperty() mayHaveAsyncPayments: boolean;
  @ApiProperty() mayHavePaymentsLimits: boolean;
  @ApiProperty() supportsReserve: boolean;
}

export class PaymentInstrumentTypeResponse {
  @ApiProperty({ format: 'uuid' }) paymentInstrumentTypeId: string;
  @ApiProperty({ enum: PaymentInstrumentTypeName }) paymentInstrumentTypeName: string;
}

export class CountryProcessorPaymentMethodResponse {
  @ApiProperty({ format: 'uuid' }) paymentMethodId: string;
  @ApiProperty({ enum: PaymentMethodName }) paymentMethodName: string;
  @ApiProperty({ format: 'uuid', description: 'The instrument type this processor collects with' }) paymentInstrumentTypeId: string;
}

/** The country a country processor collects in, as its money pages need it. */
export class CountryProcessorCountryResponse {
  @ApiProperty({ format: 'uuid' }) countryId: string;
  @ApiProperty({ example: 'URY' }) iso31663AlphabeticalCode: string;
  @ApiProperty({ example: 'UYU', description: 'The country’s own currency' }) iso4217CurrencyCode: string;
  @ApiProperty({ example: 'America/Montevideo', description: 'The IANA time zone its business days and local dates are counted in' })
  timeZone: string;
}

export class CountryProcessorResponse {
  @ApiProperty({ format: 'uuid' }) countryProcessorId: string;
  @ApiProperty({ format: 'uuid' }) paymentInstrumentTypeId: string;
  @ApiProperty({ type: PaymentInstrumentTypeResponse }) paymentInstrumentType: PaymentInstrumentTypeResponse;
  @ApiProperty({ format: 'uuid' }) paymentMethodId: string;
  @ApiProperty({ type: CountryProcessorPaymentMethodResponse }) paymentMethod: CountryProcessorPaymentMethodResponse;
  @ApiProperty() active: boolean;
  @ApiProperty({ enum: Currency, isArray: true }) currency: string[];
  @ApiProperty({ type: CountryProcessorCountryResponse }) country: CountryProcessorCountryResponse;
}
