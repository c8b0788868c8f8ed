import { Body, Delete, Get, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
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
import { asMerchantId } from '@pcs/kernel';
import { MERCADO_PAGO } from '@pcs/mercado-pago';
import type { Caller } from '@pcs/kernel';
import { ConnectMercadoPagoAccountDto } from './gateway-account.dto';
import { MercadoPagoAccountDeletedResponse, MercadoPagoAccountResponse } from './gateway-account.responses';

const NO_ACCOUNT = {
  type: ErrorResponse,
  description: 'Payins:MERCHANT_NOT_FOUND, or Payins:GATEWAY_ACCOUNT_NOT_FOUND: no account connected',
};

/** A merchant's Mercado Pago account (contract §16): business credentials, or the merchant's own. */
@SignedController('merchant/:merchantId/gateway-account/mercado-pago', 'merchants', 'money:write')
export class GatewayAccountController {
  constructor(private readonly accounts: GatewayAccounts) {}

  @Put()
  @SignatureVersionRequired(3)
  @ApiOperation({
    summary: "Connect or replace the merchant's Mercado Pago account",
    description:
      'Payments with the listed methods (default MERCADO_PAGO) go to Mercado Pago Checkout Pro from then on; the rest stay on the sandbox. ' +
      'The access token and webhook secret are sealed at rest and never answered.',
    operationId: 'connectMercadoPagoAccount',
  })
  @RequestExample(ConnectMercadoPagoAccountDto, {
    accessToken: 'TEST-5417539263426117-112408-8c3d0f2b5e1a4d7e9f6b0a1c2d3e4f5a-123456789',
    webhookSecret: 'a3f9c2e1b7d54e6f8a9b0c1d2e3f4a5b',
    paymentMethods: ['VISA'],
    fundsFlow: 'PLATFORM',
  })
  @ApiOkResponse({ type: MercadoPagoAccountResponse })
  @ApiStandardErrors()
  async connect(
    @CurrentCaller() caller: Caller,
    @UuidParam('merchantId') merchantId: string,
    @Body() body: ConnectMercadoPagoAccountDto,
  ): Promise<MercadoPagoAccountResponse> {
    const { accessToken, webhookSecret, paymentMethods, fundsFlow } = body;
    return mercadoPagoAccount(
      await this.accounts.connect(caller, asMerchantId(merchantId), MERCADO_PAGO, {
        secrets: { accessToken, webhookSecret },
        paymentMethods,
        fundsFlow,
      }),
    );
  }

  @Get()
  @ApiOperation({
    summary: "The merchant's Mercado Pago account",
    description: 'Its routed payment methods and a hint of its access token; never the token or the webhook secret.',
    operationId: 'getMercadoPagoAccount',
  })
  @ApiOkResponse({ type: MercadoPagoAccountResponse })
  @ApiNotFoundResponse(NO_ACCOUNT)
  @ApiStandardErrors({ notFound: false })
  async get(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<MercadoPagoAccountResponse> {
    return mercadoPagoAccount(await this.accounts.get(caller, asMerchantId(merchantId), MERCADO_PAGO));
  }

  @Delete()
  @SignatureVersionRequired(3)
  @ApiOperation({
    summary: "Disconnect the merchant's Mercado Pago account",
    description: 'Its methods go back to the sandbox; payments already at Mercado Pago keep their records.',
    operationId: 'disconnectMercadoPagoAccount',
  })
  @ApiOkResponse({ type: MercadoPagoAccountDeletedResponse })
  @ApiNotFoundResponse(NO_ACCOUNT)
  @ApiStandardErrors({ notFound: false })
  disconnect(@CurrentCaller() caller: Caller, @UuidParam('merchantId') merchantId: string): Promise<MercadoPagoAccountDeletedResponse> {
    return this.accounts.disconnect(caller, asMerchantId(merchantId), MERCADO_PAGO);
  }
}

function mercadoPagoAccount(view: GatewayAccountView): MercadoPagoAccountResponse {
  return {
    provider: 'MERCADO_PAGO',
    merchantId: view.merchantId,
    paymentMethods: [...view.paymentMethods],
    fundsFlow: view.fundsFlow,
    accessTokenHint: view.accessTokenHint,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}
