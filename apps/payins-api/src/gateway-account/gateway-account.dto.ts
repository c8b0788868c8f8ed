import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Optional } from '@pcs/http';
import { FUNDS_FLOWS, PaymentMethodName } from '@pcs/kernel';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsEnum, IsIn, IsString, Matches } from 'class-validator';

/** 1–256 printable characters (contract §16). */
const PRINTABLE = /^[\x20-\x7E]{1,256}$/;

/** Connects or replaces a merchant's Mercado Pago account (contract §16). */
export class ConnectMercadoPagoAccountDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 256,
    example: 'TEST-5417539263426117-112408-8c3d0f2b5e1a4d7e9f6b0a1c2d3e4f5a-123456789',
    description: "The merchant's access token (test credentials first). Sealed at rest; never answered.",
  })
  @IsString()
  @Matches(PRINTABLE, { message: 'accessToken must have 1 to 256 printable characters' })
  accessToken: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 256,
    description: "The secret signature of the merchant's Mercado Pago application (Webhooks): verifies notifications. Never answered.",
  })
  @IsString()
  @Matches(PRINTABLE, { message: 'webhookSecret must have 1 to 256 printable characters' })
  webhookSecret: string;

  @ApiPropertyOptional({
    enum: PaymentMethodName,
    isArray: true,
    default: ['MERCADO_PAGO'],
    description: 'The payment methods collected through Mercado Pago; each must be one the merchant offers. The rest stay on the sandbox.',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsEnum(PaymentMethodName, { each: true })
  paymentMethods?: PaymentMethodName[];

  @ApiPropertyOptional({
    enum: FUNDS_FLOWS,
    description:
      'Whose account this is (contract §23). MERCHANT (the default for a new account): the merchant’s own; the processor pays the merchant, ' +
      'and only our fee is owed (netted by payouts). PLATFORM: the business’s; the business holds the money and pays the merchant out. ' +
      'Omitted on a replacement: the account keeps its flow. A change applies to payments approved afterwards.',
  })
  @Optional()
  @IsIn(FUNDS_FLOWS, { message: `fundsFlow must be one of ${FUNDS_FLOWS.join(', ')}` })
  fundsFlow?: 'PLATFORM' | 'MERCHANT';
}

/** Connects or replaces a merchant's dLocal account (contract §20): the credentials of dLocal's dashboard, Settings > Integration. */
export class ConnectDLocalAccountDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 256,
    description: 'The X-Login of the merchant’s dLocal account. Sealed at rest; never answered.',
  })
  @IsString()
  @Matches(PRINTABLE, { message: 'xLogin must have 1 to 256 printable characters' })
  xLogin: string;

  @ApiProperty({ minLength: 1, maxLength: 256, description: 'Its X-Trans-Key. Sealed at rest; never answered.' })
  @IsString()
  @Matches(PRINTABLE, { message: 'xTransKey must have 1 to 256 printable characters' })
  xTransKey: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 256,
    description: 'Its secret key: signs every request and verifies dLocal’s notifications. Sealed at rest; never answered.',
  })
  @IsString()
  @Matches(PRINTABLE, { message: 'secretKey must have 1 to 256 printable characters' })
  secretKey: string;

  @ApiPropertyOptional({
    enum: PaymentMethodName,
    isArray: true,
    description:
      'The payment methods collected through dLocal; each must be one the merchant offers and dLocal collects in one of its countries ' +
      '(docs/processors.md, "dLocal"). Default: all such methods. The rest stay where they were.',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsEnum(PaymentMethodName, { each: true })
  paymentMethods?: PaymentMethodName[];

  @ApiPropertyOptional({
    enum: FUNDS_FLOWS,
    description:
      'Whose account this is (contract §23). MERCHANT (the default for a new account): the merchant’s own; the processor pays the merchant, ' +
      'and only our fee is owed (netted by payouts). PLATFORM: the business’s; the business holds the money and pays the merchant out. ' +
      'Omitted on a replacement: the account keeps its flow. A change applies to payments approved afterwards.',
  })
  @Optional()
  @IsIn(FUNDS_FLOWS, { message: `fundsFlow must be one of ${FUNDS_FLOWS.join(', ')}` })
  fundsFlow?: 'PLATFORM' | 'MERCHANT';
}
