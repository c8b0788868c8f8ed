import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class ShowMessageResponse {
  @ApiProperty({ example: 'The merchant was not found.' })
  EN: string;

  @ApiProperty({ example: 'No se encontró el comercio.' })
  ES: string;
}

/** The specification's error body, for the docs. */
export class ErrorResponse {
  @ApiProperty()
  message: string;

  @ApiProperty({ type: ShowMessageResponse })
  showMessage: ShowMessageResponse;

  @ApiProperty({ example: false })
  needUpdate: boolean;

  @ApiProperty({ example: 'Payins:MERCHANT_NOT_FOUND', description: '<Area>:<CODE>' })
  errorId: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only with Payins:SETTLEMENT_ACCOUNT_ON_HOLD: when payouts to the new settlement account may leave',
  })
  holdUntil?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Only with Payins:SETTLEMENT_ACCOUNT_RETURNED: the payout a bank gave back from the settlement account',
  })
  returnedPayoutId?: string;

  @ApiPropertyOptional({
    example: 20,
    format: 'decimal',
    description: 'Only with Payins:AMOUNT_BELOW_MINIMUM: the smallest amount collected (major units)',
  })
  minimumAmount?: number;
}
