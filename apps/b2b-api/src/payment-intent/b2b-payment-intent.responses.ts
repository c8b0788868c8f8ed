import { ApiProperty } from '@nestjs/swagger';
import { Currency, PaymentIntentType } from '@pcs/kernel';
import { B2B_STATUS_CODES } from '@pcs/payments';
import { B2bPaymentMethodResponse, MerchantRefResponse } from '../merchant/merchant-countries.responses';

export class AmountDetailsResponse {
  @ApiProperty({ example: 0, format: 'decimal', description: 'Major units' }) tip: number;
  @ApiProperty({ example: 220, description: 'Major units: the VAT included in amount', format: 'decimal' }) vatAmount: number;
}

export class InvoiceDetailsResponse {
  @ApiProperty({ nullable: true, type: String }) reference: string | null;
  @ApiProperty({ nullable: true, type: String }) serie: string | null;
  @ApiProperty({ nullable: true, type: 'integer' }) number: number | null;
}

export class B2bStatusResponse {
  @ApiProperty({ enum: B2B_STATUS_CODES }) code: string;
  @ApiProperty({ example: 'The payer has not chosen a payment method yet.' }) description: string;
}

export class RedirectResponse {
  @ApiProperty({ description: 'Absolute URL of the hosted checkout; opaque: follow it, never build it' }) reference: string;
}

export class NextActionResponse {
  @ApiProperty({ example: 'REDIRECT' }) type: string;
  @ApiProperty({ type: RedirectResponse }) redirect: RedirectResponse;
}

/** B2B payment intent (specification). */
export class B2bPaymentIntentResponse {
  @ApiProperty({ format: 'uuid' }) paymentIntentId: string;
  @ApiProperty({ type: MerchantRefResponse }) merchant: MerchantRefResponse;
  @ApiProperty({ enum: PaymentIntentType }) type: string;
  @ApiProperty({ nullable: true, type: String }) externalReference: string | null;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: Currency }) currency: string;
  @ApiProperty({ example: 1220, description: 'Major units, VAT included, tip excluded', format: 'decimal' }) amount: number;
  @ApiProperty({ type: AmountDetailsResponse }) amountDetails: AmountDetailsResponse;
  @ApiProperty({ type: InvoiceDetailsResponse }) invoiceDetails: InvoiceDetailsResponse;
  @ApiProperty() includeAllPaymentMethods: boolean;
  @ApiProperty({ type: B2bPaymentMethodResponse, nullable: true, description: 'The method of the latest attempt; null before one' })
  paymentMethod: B2bPaymentMethodResponse | null;
  @ApiProperty({ type: [B2bPaymentMethodResponse], description: 'What the payer may choose now' })
  availablePaymentMethods: B2bPaymentMethodResponse[];
  @ApiProperty({ type: B2bStatusResponse }) status: B2bStatusResponse;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: NextActionResponse, nullable: true, description: 'The hosted checkout, while the payer can still pay there' })
  nextAction: NextActionResponse | null;
}

export class B2bPaginationResponse {
  @ApiProperty({ example: 1, type: 'integer' }) currentPage: number;
  @ApiProperty({ example: 20, type: 'integer' }) pageSize: number;
  @ApiProperty({ example: 57, type: 'integer' }) totalItems: number;
  @ApiProperty({ example: 3, type: 'integer' }) totalPages: number;
}

/** The B2B API's paged envelope (contract §7). */
export class B2bPaymentIntentPageResponse {
  @ApiProperty({ type: [B2bPaymentIntentResponse] }) data: B2bPaymentIntentResponse[];
  @ApiProperty({ type: B2bPaginationResponse }) pagination: B2bPaginationResponse;
}
