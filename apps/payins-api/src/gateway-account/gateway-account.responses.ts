import { ApiProperty } from '@nestjs/swagger';
import { PaymentMethodName } from '@pcs/kernel';

export class MercadoPagoAccountResponse {
  @ApiProperty({ enum: ['MERCADO_PAGO'] }) provider: 'MERCADO_PAGO';
  @ApiProperty({ format: 'uuid' }) merchantId: string;
  @ApiProperty({ enum: PaymentMethodName, isArray: true }) paymentMethods: string[];
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
