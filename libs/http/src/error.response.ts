import { ApiProperty } from '@nestjs/swagger';

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
}
