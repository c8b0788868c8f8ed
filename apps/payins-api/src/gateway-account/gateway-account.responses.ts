import { ApiProperty } from '@nestjs/swagger';
import { FUNDS_FLOWS, PaymentMethodName } from '@pcs/kernel';

export class MercadoPagoAccountResponse {
  @ApiProperty({ enum: ['MERCADO_PAGO'] }) provider: 'MERCADO_PAGO';
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ enum: PaymentMethodName, isArray: true }) paymentMethods: string[];
  @ApiProperty({
    enum: FUNDS_FLOWS,
    description: 'Whose account this is (contract §23): the business’s (PLATFORM) or the merchant’s own (MERCHANT)',
  })
  fundsFlow: string;
  @ApiProperty({
    example: '…6789',
    description: '… and the last 4 characters of the access token (only … for a token under 12 characters)',
  })
  accessTokenHint: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class MercadoPagoAccountDeletedResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
}

export class DLocalAccountResponse {
  @ApiProperty({ enum: ['DLOCAL'] }) provider: 'DLOCAL';
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ enum: PaymentMethodName, isArray: true }) paymentMethods: string[];
  @ApiProperty({
    enum: FUNDS_FLOWS,
    description: 'Whose account this is (contract §23): the business’s (PLATFORM) or the merchant’s own (MERCHANT)',
  })
  fundsFlow: string;
  @ApiProperty({ example: '…a1b2', description: '… and the last 4 characters of the X-Login (only … under 12 characters)' })
  xLoginHint: string;
  @ApiProperty({ example: '…c3d4', description: '… and the last 4 characters of the X-Trans-Key (only … under 12 characters)' })
  xTransKeyHint: string;
  @ApiProperty({ example: '…e5f6', description: '… and the last 4 characters of the secret key (only … under 12 characters)' })
  secretKeyHint: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class GatewayAccountDeletedResponse {
  @ApiProperty({ example: true }) success: boolean;
  @ApiProperty({ format: 'uuid' }) merchantId: string;
}
