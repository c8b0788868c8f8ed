import { ApiProperty } from '@nestjs/swagger';

/** A card saved by a setup page (contract §31): never the number or the code. */
export class SavedCardResponse {
  @ApiProperty({ type: String, nullable: true, example: 'VISA' }) brand: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '450799',
    description: 'The first six (or eight) digits; null where the processor that keeps the card does not tell them (dLocal)',
  })
  bin: string | null;
  @ApiProperty({ example: '4242' }) last4: string;
  @ApiProperty({ type: 'integer', example: 12 }) expMonth: number;
  @ApiProperty({ type: 'integer', example: 2029 }) expYear: number;
}

/** A Pix Automático authorisation (contract §31): what the payer authorised in the bank's app. */
export class PixAutomaticoResponse {
  @ApiProperty({ example: 49.9, format: 'decimal', description: 'Every charge is exactly this amount' }) amount: number;
  @ApiProperty({ enum: ['BRL'] }) currency: string;
  @ApiProperty({ enum: ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUAL', 'ANNUAL'] }) frequency: string;
  @ApiProperty({ format: 'date', example: '2027-01-10', description: 'The first billing date the payer authorised' }) startDate: string;
}

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
  @ApiProperty({ type: SavedCardResponse, nullable: true, description: 'The card a setup page saved; null for other instruments' })
  card: SavedCardResponse | null;
  @ApiProperty({
    type: PixAutomaticoResponse,
    nullable: true,
    description: 'The Pix Automático authorisation a setup page obtained; null for other instruments',
  })
  pixAutomatico: PixAutomaticoResponse | null;
}
