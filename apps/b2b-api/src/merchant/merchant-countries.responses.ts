import { ApiProperty } from '@nestjs/swagger';
import { B2bCountry, Currency, PaymentInstrumentTypeName, PaymentMethodName } from '@pcs/kernel';

export class PaymentMethodOptionsResponse {
  @ApiProperty({ enum: PaymentMethodName, isArray: true, example: ['MASTER_CARD', 'VISA'] }) networks: string[];
}

/** Payment method (B2B): an instrument type with its currencies and networks. */
export class B2bPaymentMethodResponse {
  @ApiProperty({ enum: PaymentInstrumentTypeName, description: 'Payment instrument type name' }) name: string;
  @ApiProperty({ enum: Currency, isArray: true }) currencies: string[];
  @ApiProperty({ type: PaymentMethodOptionsResponse }) options: PaymentMethodOptionsResponse;
}

export class MerchantRefResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

export class MerchantCountryResponse {
  @ApiProperty({ enum: B2bCountry }) country: string;
  @ApiProperty({ enum: Currency, isArray: true }) currencies: string[];
  @ApiProperty({ type: [Number], example: [0, 10, 22], description: 'VAT percentages allowed in the country' }) vat: number[];
  @ApiProperty({ type: [B2bPaymentMethodResponse] }) paymentMethods: B2bPaymentMethodResponse[];
}

export class MerchantCountriesResponse {
  @ApiProperty({ type: MerchantRefResponse }) merchant: MerchantRefResponse;
  @ApiProperty({ type: [MerchantCountryResponse] }) countries: MerchantCountryResponse[];
}
