import { Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiStandardErrors, SignedController } from '@pcs/http';
import { bankRepresentation, SettlementAccountsService } from '@pcs/settlement';
import { ListBanksQuery } from './settlement.dto';
import { BankResponse } from './settlement.responses';

/** The banks payouts can go to (contract §19). */
@SignedController('bank', 'settlement')
export class BankController {
  constructor(private readonly accounts: SettlementAccountsService) {}

  @Get()
  @ApiOperation({
    summary: 'List the banks of a country',
    description:
      'The banks of Uruguay, Argentina and Brazil with their official codes (BCU, BCRA, COMPE with ISPB), for settlement accounts. A plain array.',
    operationId: 'listBanks',
  })
  @ApiOkResponse({ type: [BankResponse] })
  @ApiStandardErrors({ notFound: false })
  async list(@Query() query: ListBanksQuery): Promise<BankResponse[]> {
    return (await this.accounts.banks(query.country)).map(bankRepresentation);
  }
}
