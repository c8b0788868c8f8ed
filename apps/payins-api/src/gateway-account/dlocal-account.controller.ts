import { Body, Delete, Get, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DLOCAL } from '@pcs/dlocal';
import { GatewayAccounts, GatewayAccountView } from '@pcs/gateway-accounts';
import {
  ApiStandardErrors,
  CurrentCaller,
  ErrorResponse,
  SignedController,
  UuidParam,
  SignatureVersionRequired,
  RequestExample,
} from '@pcs/http';
import type { Caller } from '@pcs/kernel';
import { asMerchantId } from '@pcs/kernel';
import { ConnectDLocalAccountDto } from './gateway-account.dto';
import { DLocalAccountResponse, GatewayAccountDeletedResponse } from './gateway-account.responses';

const NO_ACCOUNT = {
  type: ErrorResponse,
  description: 'Payins:MERCHANT_NOT_FOUND, or Payins:GATEWAY_ACCOUNT_NOT_FOUND: no account connected',
};

/** A merchant's dLocal account (contract §20): business credentials, or the merchant's own. */
@SignedController('merchant/:merchantId/gateway-account/dlocal', 'merchants', 'money:write')
export class DLocalAccountController {
  constructor(private readonly accounts: GatewayAccounts) {}

  @Put()
  @SignatureVersionRequired(3)
  @ApiOperation({
    summary: "Connect or replace the merchant's dLocal account",
    description:
      'Payments with the listed methods go to dLocal from then on (PIX, cards, bank transfers and cash vouchers, where dLocal collects them); ' +
      'a method already routed to another processor is refused. The X-Login, X-Trans-Key and secret key are sealed at rest and never answered.',
    operationId: 'connectDLocalAccount',
  })
  @RequestExample(ConnectDLocalAccountDto, {
    xLogin: 'sak223k2wdksdl2',
    xTransKey: 'fm12O7G9',
    secretKey: '1LgHZ0YVHp2cE4pk9PYMMY0qsFWnTq3cZ',
    paymentMethods: ['MASTER_CARD'],
    fundsFlow: 'PLATFORM',
  })
  @ApiOkResponse({ type: DLocalAccountResponse })
  @ApiStandardErrors()
  async connect(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Body() body: ConnectDLocalAccountDto,
  ): Promise<DLocalAccountResponse> {
    const { xLogin, xTransKey, secretKey, paymentMethods, fundsFlow } = body;
    return dlocalAccount(
      await this.accounts.connect(caller, asMerchantId(merchantId), DLOCAL, {
        secrets: { xLogin, xTransKey, secretKey },
        paymentMethods,
        fundsFlow,
      }),
    );
  }

  @Get()
  @ApiOperation({
    summary: "The merchant's dLocal account",
    description: 'Its routed payment methods and a hint of each credential; never a credential.',
    operationId: 'getDLocalAccount',
  })
  @ApiOkResponse({ type: DLocalAccountResponse })
  @ApiNotFoundResponse(NO_ACCOUNT)
  @ApiStandardErrors({ notFound: false })
  async get(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<DLocalAccountResponse> {
    return dlocalAccount(await this.accounts.get(caller, asMerchantId(merchantId), DLOCAL));
  }

  @Delete()
  @SignatureVersionRequired(3)
  @ApiOperation({
    summary: "Disconnect the merchant's dLocal account",
    description: 'Its methods go back to the catalog’s gateway (the sandbox); payments already at dLocal keep their records.',
    operationId: 'disconnectDLocalAccount',
  })
  @ApiOkResponse({ type: GatewayAccountDeletedResponse })
  @ApiNotFoundResponse(NO_ACCOUNT)
  @ApiStandardErrors({ notFound: false })
  disconnect(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<GatewayAccountDeletedResponse> {
    return this.accounts.disconnect(caller, asMerchantId(merchantId), DLOCAL);
  }
}

function dlocalAccount(view: GatewayAccountView): DLocalAccountResponse {
  return {
    provider: 'DLOCAL',
    merchantId: view.merchantId,
    paymentMethods: [...view.paymentMethods],
    fundsFlow: view.fundsFlow,
    xLoginHint: view.xLoginHint,
    xTransKeyHint: view.xTransKeyHint,
    secretKeyHint: view.secretKeyHint,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}
