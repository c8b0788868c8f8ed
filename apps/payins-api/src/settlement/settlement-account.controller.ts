import { Body, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { ApiStandardErrors, CurrentCaller, SignedController, UuidParamPipe } from '@pcs/http';
import { asMerchantId, Currency, InvalidRequestError, isCurrency } from '@pcs/kernel';
import type { Caller } from '@pcs/kernel';
import { settlementAccountRepresentation, SettlementAccountsService } from '@pcs/settlement';
import { PutSettlementAccountDto } from './settlement.dto';
import { SettlementAccountResponse } from './settlement.responses';

/** A merchant's settlement accounts, one per currency (contract §19). */
@SignedController('merchant/:merchantId/settlement-account', 'settlement')
export class SettlementAccountController {
  constructor(private readonly accounts: SettlementAccountsService) {}

  @Put(':currency')
  @ApiOperation({
    summary: "Set the merchant's settlement account in a currency",
    description:
      'Where payouts in that currency go. Checked against its country: a CBU/CVU with both check digits at its bank (Argentina), branch and ' +
      'account or a PIX key (Brazil), the bank’s digits (Uruguay). A bad one is a 400 Payins:INVALID_SETTLEMENT_ACCOUNT.',
    operationId: 'putSettlementAccount',
  })
  @ApiParam({ name: 'currency', enum: Currency })
  @ApiOkResponse({ type: SettlementAccountResponse })
  @ApiStandardErrors()
  async put(
    @CurrentCaller() caller: Caller,
    @Param('merchantId', UuidParamPipe) merchantId: string,
    @Param('currency') currency: string,
    @Body() body: PutSettlementAccountDto,
  ): Promise<SettlementAccountResponse> {
    if (!isCurrency(currency)) throw new InvalidRequestError(['currency'], 'currency must be a supported currency');
    return settlementAccountRepresentation(await this.accounts.put(caller, asMerchantId(merchantId), currency, body));
  }

  @Get()
  @ApiOperation({
    summary: "The merchant's settlement accounts",
    description: 'One per currency; a plain array.',
    operationId: 'listSettlementAccounts',
  })
  @ApiOkResponse({ type: [SettlementAccountResponse] })
  @ApiStandardErrors()
  async list(
    @CurrentCaller() caller: Caller,
    @Param('merchantId', UuidParamPipe) merchantId: string,
  ): Promise<SettlementAccountResponse[]> {
    return (await this.accounts.list(caller, asMerchantId(merchantId))).map(settlementAccountRepresentation);
  }
}
