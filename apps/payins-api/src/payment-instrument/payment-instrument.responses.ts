import { ApiProperty } from '@nestjs/swagger';

export class PaymentInstrumentResponse {
  @ApiProperty({ format: 'uuid' }) paymentInstrumentId: string;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ format: 'uuid' }) payerId: string;
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE'] }) paymentInstrumentStatus: string;
  @ApiProperty({ format: 'uuid' }) paymentMethodId: string;
  @ApiProperty({ type: String, nullable: true, description: "The gateway's token for this instrument, once it has one" }) externalId:
    string | null;
  @ApiProperty() active: boolean;
  @ApiProperty({ description: 'True after the first approved payment' }) validated: boolean;
  @ApiProperty({ example: 'URY', description: 'Comma-separated ISO 3166 alpha-3 codes' }) countries: string;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) metadata: Record<string, unknown> | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'REQUIRES_FIRST_PAYMENT',
    description: 'REQUIRES_FIRST_PAYMENT until validated; null when nothing is pending',
  })
  nextAction: string | null;
}
